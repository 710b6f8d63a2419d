import { afterEach, describe, expect, it } from 'vitest';
import { NEXT_PAGE_TOAST_KEY, carryToast, showCarriedToast } from './next-page-toast.ts';
import { $toasts, resetToasts } from './toast.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

afterEach(() => resetToasts());

describe('a toast carried to the next page', () => {
  it('shows once on the page loaded next, then is gone', () => {
    const storage = memoryStorage();
    carryToast(storage, { type: 'success', message: '注册成功，欢迎来到 Hikari！' });
    expect($toasts.get()).toHaveLength(0);
    expect(showCarriedToast(storage)).toEqual({ type: 'success', message: '注册成功，欢迎来到 Hikari！' });
    expect($toasts.get()).toMatchObject([{ type: 'success', message: '注册成功，欢迎来到 Hikari！' }]);
    expect(storage.items.has(NEXT_PAGE_TOAST_KEY)).toBe(false);
    expect(showCarriedToast(storage)).toBeNull();
    expect($toasts.get()).toHaveLength(1);
  });

  it('ignores and clears anything that is not a carried toast', () => {
    const storage = memoryStorage();
    for (const raw of ['not json', '{"type":"error","message":"x"}', '{"type":"success","message":""}', '[]']) {
      storage.setItem(NEXT_PAGE_TOAST_KEY, raw);
      expect(showCarriedToast(storage)).toBeNull();
      expect(storage.items.has(NEXT_PAGE_TOAST_KEY)).toBe(false);
    }
    expect($toasts.get()).toHaveLength(0);
  });

  it('does not break when storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => carryToast(refusing, { type: 'info', message: 'x' })).not.toThrow();
    expect(showCarriedToast(refusing)).toBeNull();
  });
});
