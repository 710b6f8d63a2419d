import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $toasts,
  TOAST_DEFAULT_DURATION,
  TOAST_FADE_MS,
  dismissToast,
  pauseToast,
  resetToasts,
  resumeToast,
  showToast,
  toast,
  toastOffset,
} from './toast.ts';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetToasts();
  });
  afterEach(() => {
    resetToasts();
    vi.useRealTimers();
  });

  it('applies the spec defaults', () => {
    showToast('保存成功');
    const [t] = $toasts.get();
    expect(t).toMatchObject({
      message: '保存成功',
      type: 'info',
      duration: 3000,
      closeable: true,
      keepAliveOnHover: true,
      autoClose: true,
      repeat: 0,
      leaving: false,
    });
  });

  it('closes after 3000 ms, fades for 300 ms, then is gone', () => {
    toast.success('签到成功，获得 5 HikariPoint');
    vi.advanceTimersByTime(TOAST_DEFAULT_DURATION - 1);
    expect($toasts.get()[0]?.leaving).toBe(false);
    vi.advanceTimersByTime(1);
    expect($toasts.get()[0]?.leaving).toBe(true);
    vi.advanceTimersByTime(TOAST_FADE_MS - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('merges an identical visible toast: the timer restarts and the repeat counter rises', () => {
    const first = toast.error('网络错误');
    vi.advanceTimersByTime(2000);
    const second = toast.error('网络错误');
    expect(second).toBe(first);
    expect($toasts.get()).toHaveLength(1);
    expect($toasts.get()[0]?.repeat).toBe(1);
    // 2000 ms after the merge the original 3000 ms would have elapsed; the restarted timer has not.
    vi.advanceTimersByTime(2000);
    expect($toasts.get()[0]?.leaving).toBe(false);
    vi.advanceTimersByTime(1000);
    expect($toasts.get()[0]?.leaving).toBe(true);
  });

  it('does not merge toasts that differ in type or message, or one already fading', () => {
    toast.info('A');
    toast.error('A');
    toast.info('B');
    expect($toasts.get()).toHaveLength(3);
    dismissToast($toasts.get()[0]!.id);
    toast.info('A');
    expect($toasts.get()).toHaveLength(4);
  });

  it('pauses while hovered when keepAliveOnHover is set, and resumes with the time left', () => {
    const id = showToast('hover me');
    vi.advanceTimersByTime(1000);
    pauseToast(id);
    vi.advanceTimersByTime(10_000);
    expect($toasts.get()[0]?.leaving).toBe(false);
    resumeToast(id);
    vi.advanceTimersByTime(1999);
    expect($toasts.get()[0]?.leaving).toBe(false);
    vi.advanceTimersByTime(1);
    expect($toasts.get()[0]?.leaving).toBe(true);
  });

  it('keeps counting while hovered when keepAliveOnHover is off', () => {
    const id = showToast('no pause', { keepAliveOnHover: false });
    pauseToast(id);
    vi.advanceTimersByTime(3000);
    expect($toasts.get()[0]?.leaving).toBe(true);
  });

  it('never closes by itself when autoClose is off', () => {
    toast.loading('上传中…', { autoClose: false });
    vi.advanceTimersByTime(60_000);
    expect($toasts.get()[0]?.leaving).toBe(false);
  });

  it('stacks toasts 60 px apart', () => {
    expect([0, 1, 2].map(toastOffset)).toEqual([0, 60, 120]);
  });
});
