import { USER_CARD_ATTRIBUTE, userCardId, type createUserCard } from '../../../stores/user-card.ts';

/** The open card's element id: the trigger's Tab hands the focus to it. */
export const USER_CARD_ID = 'hk-user-card';

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

type Card = ReturnType<typeof createUserCard<HTMLElement>>;

/** The name or avatar an event happened in, with the member it names. */
function triggerOf(target: EventTarget | null): { element: HTMLElement; userId: number } | null {
  const element = (target as Element | null)?.closest?.<HTMLElement>(`[${USER_CARD_ATTRIBUTE}]`);
  if (!element) return null;
  const userId = userCardId(element.getAttribute(USER_CARD_ATTRIBUTE));
  return userId === null ? null : { element, userId };
}

const inCard = (node: EventTarget | null) =>
  node instanceof Node && document.getElementById(USER_CARD_ID)?.contains(node) === true;

/** The focusable elements of the open card, in order. */
export function cardFocusables(): HTMLElement[] {
  const card = document.getElementById(USER_CARD_ID);
  return card ? [...card.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
}

/** The first element after `anchor` in the page's Tab order (outside the card), if any. */
export function nextTabbable(anchor: HTMLElement): HTMLElement | null {
  const all = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)];
  return (
    all.find(
      (element) =>
        !inCard(element) &&
        !anchor.contains(element) &&
        anchor.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING &&
        element.offsetParent !== null,
    ) ?? null
  );
}

/**
 * Every name and avatar with `data-user-card` opens the card: the pointer resting on it (a touch just
 * follows the link), or the keyboard's focus. One set of listeners on the document serves the
 * server-rendered names and those islands draw later alike. Tab from an open card's name goes into the
 * card, as if it followed the name in the page. `first`: the event that had this code loaded (it is
 * handled as if the listeners had caught it, when the pointer or focus is still there).
 */
export function installUserCardTriggers(card: Card, first?: Event): () => void {
  const over = (event: PointerEvent) => {
    if (event.pointerType === 'touch') return;
    const trigger = triggerOf(event.target);
    if (trigger) card.enter(trigger.element, trigger.userId, 'pointer');
  };
  const out = (event: PointerEvent) => {
    const trigger = triggerOf(event.target);
    if (!trigger || trigger.element.contains(event.relatedTarget as Node | null)) return;
    if (inCard(event.relatedTarget)) return card.enterCard();
    card.leave(trigger.element);
  };
  const focusIn = (event: FocusEvent) => {
    const trigger = triggerOf(event.target);
    if (!trigger) return;
    // A click focuses the link too: only a keyboard focus opens the card here.
    if (!trigger.element.matches(':focus-visible')) return;
    card.enter(trigger.element, trigger.userId, 'focus');
  };
  const focusOut = (event: FocusEvent) => {
    const trigger = triggerOf(event.target);
    if (!trigger || card.$card.get()?.via !== 'focus') return;
    if (inCard(event.relatedTarget)) return card.enterCard();
    card.leave(trigger.element);
  };
  const keyDown = (event: KeyboardEvent) => {
    const state = card.$card.get();
    if (!state) return;
    if (event.key === 'Escape' && !state.open) return card.close();
    if (event.key !== 'Tab' || event.shiftKey || !state.open || event.target !== state.anchor) return;
    const first = cardFocusables()[0];
    if (!first) return;
    event.preventDefault();
    first.focus();
  };
  const swap = () => card.close();

  // The event that had this code loaded, if the pointer or focus is still there.
  const start = (first?.target as Element | null) ?? null;
  if (first?.type === 'pointerover' && start?.matches(':hover')) over(first as PointerEvent);
  if (first?.type === 'focusin' && start === document.activeElement) focusIn(first as FocusEvent);

  document.addEventListener('pointerover', over, { passive: true });
  document.addEventListener('pointerout', out, { passive: true });
  document.addEventListener('focusin', focusIn);
  document.addEventListener('focusout', focusOut);
  document.addEventListener('keydown', keyDown);
  document.addEventListener('astro:before-swap', swap);
  return () => {
    document.removeEventListener('pointerover', over);
    document.removeEventListener('pointerout', out);
    document.removeEventListener('focusin', focusIn);
    document.removeEventListener('focusout', focusOut);
    document.removeEventListener('keydown', keyDown);
    document.removeEventListener('astro:before-swap', swap);
  };
}
