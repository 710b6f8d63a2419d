import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $dialogs, DIALOG_EXIT_MS, alertDialog, confirmDialog, settleDialog, type DialogOutcome } from './dialog.ts';

describe('confirm and alert dialogs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  const cases: [DialogOutcome, boolean][] = [
    ['confirm', true],
    ['cancel', false],
    ['close', false],
    ['mask', false],
  ];

  it.each(cases)('confirm resolves %s → %s', async (outcome, expected) => {
    const result = confirmDialog('are you sure you want to log out?');
    const entry = $dialogs.get().at(-1)!;
    expect(entry.kind).toBe('confirm');
    settleDialog(entry.id, outcome);
    await expect(result).resolves.toBe(expected);
  });

  it('keeps the dialog for the 300 ms exit animation, then removes it', async () => {
    const result = alertDialog({ title: '提示', message: '已保存' });
    const entry = $dialogs.get().at(-1)!;
    settleDialog(entry.id, 'confirm');
    await result;
    expect($dialogs.get().find((d) => d.id === entry.id)?.closing).toBe(true);
    vi.advanceTimersByTime(DIALOG_EXIT_MS - 1);
    expect($dialogs.get().some((d) => d.id === entry.id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect($dialogs.get().some((d) => d.id === entry.id)).toBe(false);
  });

  it('ignores a second settle of the same dialog (double click)', async () => {
    const result = confirmDialog('x');
    const entry = $dialogs.get().at(-1)!;
    settleDialog(entry.id, 'confirm');
    settleDialog(entry.id, 'cancel');
    await expect(result).resolves.toBe(true);
  });
});
