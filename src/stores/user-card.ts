import { atom } from 'nanostores';

/**
 * The user card of spec §2.6 (decision 023): which member's card is opening or open, and next to which
 * name or avatar (the profiles it shows: user-profiles.ts). Every page loads this, so it imports nothing.
 * Islands render these stores; the page's names and avatars only carry `data-user-card="{userId}"`.
 */

/** Spec §9: the card opens after 500 ms over a name or avatar (or with the keyboard's focus on it). */
export const USER_CARD_OPEN_DELAY_MS = 500;
/** Time for the pointer to travel from the name into the card before it closes. */
export const USER_CARD_CLOSE_GRACE_MS = 300;
/** What marks a name or avatar as opening a member's card; its value is their userId. */
export const USER_CARD_ATTRIBUTE = 'data-user-card';

export type UserCardVia = 'pointer' | 'focus';

export interface UserCardState<A> {
  userId: number;
  /** The name or avatar it opens beside. */
  anchor: A;
  /** False while the delay runs. */
  open: boolean;
  via: UserCardVia;
}

export interface UserCardTimers {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const realTimers: UserCardTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface UserCardOptions {
  /** Called when a card starts opening: its code and the member's profile load during the delay. */
  prepare?: (userId: number) => void;
  timers?: UserCardTimers;
}

/** The userId a trigger names, or null when its attribute is not one. */
export function userCardId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

export function createUserCard<A>(options: UserCardOptions = {}) {
  const timers = options.timers ?? realTimers;
  const $card = atom<UserCardState<A> | null>(null);
  let openTimer: unknown = null;
  let closeTimer: unknown = null;
  const stop = () => {
    if (openTimer !== null) timers.clear(openTimer);
    if (closeTimer !== null) timers.clear(closeTimer);
    openTimer = closeTimer = null;
  };
  const close = () => {
    stop();
    $card.set(null);
  };
  const closeSoon = () => {
    if (closeTimer !== null) timers.clear(closeTimer);
    closeTimer = timers.set(() => {
      closeTimer = null;
      close();
    }, USER_CARD_CLOSE_GRACE_MS);
  };

  return {
    $card,
    /** The pointer or the keyboard's focus reached a name or avatar. */
    enter(anchor: A, userId: number, via: UserCardVia): void {
      const current = $card.get();
      if (current && current.anchor === anchor && current.userId === userId) {
        if (closeTimer !== null) timers.clear(closeTimer);
        closeTimer = null;
        return;
      }
      stop();
      $card.set({ userId, anchor, open: false, via });
      options.prepare?.(userId);
      openTimer = timers.set(() => {
        openTimer = null;
        const state = $card.get();
        if (state && state.anchor === anchor) $card.set({ ...state, open: true });
      }, USER_CARD_OPEN_DELAY_MS);
    },
    /** It left that name or avatar: an opening card is not shown, an open one closes after the grace. */
    leave(anchor: A): void {
      const current = $card.get();
      if (!current || current.anchor !== anchor) return;
      if (!current.open) close();
      else closeSoon();
    },
    /** The pointer or focus is in the card: it stays. */
    enterCard(): void {
      if (closeTimer !== null) timers.clear(closeTimer);
      closeTimer = null;
    },
    leaveCard(): void {
      if ($card.get()?.open) closeSoon();
    },
    /** Escape, a press outside, a new page. */
    close,
  };
}

/** The page's card, anchored to a name or avatar element. */
export const userCard = createUserCard<HTMLElement>({
  // The profiles' code (and the API client) loads with the first card that starts opening.
  prepare: (userId) => void import('./user-profiles.ts').then(({ profiles }) => profiles.load(userId)),
});
