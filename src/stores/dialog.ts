import { atom } from 'nanostores';

/** Exit animation of modals and dialogs (spec §4, §9). */
export const DIALOG_EXIT_MS = 300;

export type DialogKind = 'alert' | 'confirm';
/** How a dialog ended: the confirm button, the cancel button, the close button/Escape, or a mask click. */
export type DialogOutcome = 'confirm' | 'cancel' | 'close' | 'mask';

export interface DialogOptions {
  title?: string;
  message: string;
  confirmText?: string;
  cancelText?: string;
}

export interface DialogEntry {
  id: number;
  kind: DialogKind;
  title: string | undefined;
  message: string;
  confirmText: string | undefined;
  cancelText: string | undefined;
  closing: boolean;
}

export const $dialogs = atom<DialogEntry[]>([]);

let nextId = 1;
const resolvers = new Map<number, (value: boolean) => void>();

function open(kind: DialogKind, options: DialogOptions | string): Promise<boolean> {
  const o = typeof options === 'string' ? { message: options } : options;
  const entry: DialogEntry = {
    id: nextId++,
    kind,
    title: o.title,
    message: o.message,
    confirmText: o.confirmText,
    cancelText: o.cancelText,
    closing: false,
  };
  return new Promise<boolean>((resolve) => {
    resolvers.set(entry.id, resolve);
    $dialogs.set([...$dialogs.get(), entry]);
  });
}

/** Resolves true on confirm; false on cancel, close or a click on the mask. */
export const confirmDialog = (options: DialogOptions | string) => open('confirm', options);
/** Resolves when dismissed (true if by the confirm button). */
export const alertDialog = (options: DialogOptions | string) => open('alert', options);

/** Ends a dialog: resolves its promise at once, then removes it after the 300 ms exit animation. */
export function settleDialog(id: number, outcome: DialogOutcome): void {
  const resolve = resolvers.get(id);
  if (!resolve) return;
  resolvers.delete(id);
  resolve(outcome === 'confirm');
  $dialogs.set($dialogs.get().map((d) => (d.id === id ? { ...d, closing: true } : d)));
  setTimeout(() => $dialogs.set($dialogs.get().filter((d) => d.id !== id)), DIALOG_EXIT_MS);
}
