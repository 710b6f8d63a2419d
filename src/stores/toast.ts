import { atom } from 'nanostores';

/** Toast defaults and timings from spec §3, §4 and §9. */
export const TOAST_DEFAULT_DURATION = 3000;
export const TOAST_FADE_MS = 300;
export const TOAST_SPACING_PX = 60;

export type ToastType = 'info' | 'success' | 'warning' | 'error' | 'loading';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  duration: number;
  closeable: boolean;
  keepAliveOnHover: boolean;
  autoClose: boolean;
  /** How many more times the same toast was shown while this one was visible. */
  repeat: number;
  /** True during the 300 ms fade-out. */
  leaving: boolean;
}

export type ToastOptions = Partial<Pick<Toast, 'type' | 'duration' | 'closeable' | 'keepAliveOnHover' | 'autoClose'>>;

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  remaining: number;
  startedAt: number;
}

export const $toasts = atom<Toast[]>([]);

let nextId = 1;
const timers = new Map<number, Timer>();

function update(id: number, patch: Partial<Toast>): void {
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, ...patch } : t)));
}

function startTimer(id: number, ms: number): void {
  const existing = timers.get(id);
  if (existing?.handle) clearTimeout(existing.handle);
  timers.set(id, { handle: setTimeout(() => dismissToast(id), ms), remaining: ms, startedAt: Date.now() });
}

/** Shows a toast; an identical visible one (same type and message) is reused: timer restarted, repeat up. */
export function showToast(message: string, options: ToastOptions = {}): number {
  const type = options.type ?? 'info';
  const twin = $toasts.get().find((t) => !t.leaving && t.type === type && t.message === message);
  if (twin) {
    update(twin.id, { repeat: twin.repeat + 1 });
    if (twin.autoClose) startTimer(twin.id, twin.duration);
    return twin.id;
  }
  const toast: Toast = {
    id: nextId++,
    message,
    type,
    duration: options.duration ?? TOAST_DEFAULT_DURATION,
    closeable: options.closeable ?? true,
    keepAliveOnHover: options.keepAliveOnHover ?? true,
    autoClose: options.autoClose ?? true,
    repeat: 0,
    leaving: false,
  };
  $toasts.set([...$toasts.get(), toast]);
  if (toast.autoClose) startTimer(toast.id, toast.duration);
  return toast.id;
}

/** Starts the 300 ms fade, then removes the toast. */
export function dismissToast(id: number): void {
  const toast = $toasts.get().find((t) => t.id === id);
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
  if (!toast || toast.leaving) return;
  update(id, { leaving: true });
  setTimeout(() => $toasts.set($toasts.get().filter((t) => t.id !== id)), TOAST_FADE_MS);
}

/** Hovering pauses the countdown of a toast that keeps alive on hover. */
export function pauseToast(id: number): void {
  const toast = $toasts.get().find((t) => t.id === id);
  const timer = timers.get(id);
  if (!toast?.keepAliveOnHover || !timer?.handle) return;
  clearTimeout(timer.handle);
  timers.set(id, {
    handle: null,
    remaining: Math.max(0, timer.remaining - (Date.now() - timer.startedAt)),
    startedAt: Date.now(),
  });
}

export function resumeToast(id: number): void {
  const timer = timers.get(id);
  if (!timer || timer.handle) return;
  startTimer(id, timer.remaining);
}

/** Vertical offset of the toast at `index` in the stack. */
export const toastOffset = (index: number) => index * TOAST_SPACING_PX;

export const toast = {
  info: (message: string, options?: Omit<ToastOptions, 'type'>) => showToast(message, { ...options, type: 'info' }),
  success: (message: string, options?: Omit<ToastOptions, 'type'>) =>
    showToast(message, { ...options, type: 'success' }),
  warning: (message: string, options?: Omit<ToastOptions, 'type'>) =>
    showToast(message, { ...options, type: 'warning' }),
  error: (message: string, options?: Omit<ToastOptions, 'type'>) => showToast(message, { ...options, type: 'error' }),
  loading: (message: string, options?: Omit<ToastOptions, 'type'>) =>
    showToast(message, { ...options, type: 'loading' }),
};

/** Clears every toast and timer at once (tests, logout). */
export function resetToasts(): void {
  for (const timer of timers.values()) if (timer.handle) clearTimeout(timer.handle);
  timers.clear();
  $toasts.set([]);
}
