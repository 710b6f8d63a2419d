import { toast, type ToastType } from './toast.ts';

/**
 * A toast for the page a full page load leads to (after registering, the form sends the browser to
 * `jumpTo`): kept in sessionStorage for that one load, so it shows on the page the user lands on.
 */
export const NEXT_PAGE_TOAST_KEY = 'hikari-next-page-toast';

type Carried = { type: Extract<ToastType, 'success' | 'info'>; message: string };

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function carryToast(storage: SessionStore, carried: Carried): void {
  try {
    storage.setItem(NEXT_PAGE_TOAST_KEY, JSON.stringify(carried));
  } catch {
    // Storage refused (private mode, quota): the page itself still works, only without the greeting.
  }
}

/** Takes the carried toast (once) and shows it; returns what was shown. */
export function showCarriedToast(storage: SessionStore): Carried | null {
  let raw: string | null = null;
  try {
    raw = storage.getItem(NEXT_PAGE_TOAST_KEY);
    storage.removeItem(NEXT_PAGE_TOAST_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  let carried: unknown;
  try {
    carried = JSON.parse(raw);
  } catch {
    return null;
  }
  if (
    typeof carried !== 'object' ||
    carried === null ||
    !('message' in carried) ||
    typeof carried.message !== 'string' ||
    !carried.message ||
    !('type' in carried) ||
    (carried.type !== 'success' && carried.type !== 'info')
  )
    return null;
  const valid: Carried = { type: carried.type, message: carried.message };
  toast[valid.type](valid.message);
  return valid;
}
