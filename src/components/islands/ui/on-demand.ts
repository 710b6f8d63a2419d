import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';

/**
 * Code an island needs only once someone uses it (a menu's list, a dialog, the image preview): a
 * dynamic import started on the first sign of intent and shared by every caller. A failed import is
 * forgotten, so the next intent tries again. Loading ahead (hover, focus) ignores a failure; a load
 * for an actual use lets it reach the page's chunk-error handler (a new build replaced the chunk: reload).
 */
export interface OnDemand<T> {
  /** The module once it has arrived, else null. */
  loaded(): T | null;
  load(): Promise<T>;
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    loaded: () => value,
    load: () =>
      (pending ??= importer().then(
        (module) => (value = module),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      )),
  };
}

/**
 * The module of `code` for rendering, and a function that loads it. The first render is always
 * without it (so it matches the server's HTML); a module loaded earlier in the tab is taken right after.
 */
export function useOnDemand<T>(code: OnDemand<T>): [T | null, () => Promise<T>] {
  const [module, setModule] = useState<T | null>(null);
  useEffect(() => {
    const ready = code.loaded();
    if (ready) setModule(() => ready);
  }, [code]);
  const load = useCallback(() => {
    const loading = code.load();
    loading.then(
      (ready) => setModule(() => ready),
      () => {},
    );
    return loading;
  }, [code]);
  return [module, load];
}

/** Keys that open a menu from its focused button (WAI-ARIA menu button). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/** How a menu whose code arrived late should take over from the plain button. */
export interface MenuHandoff {
  /** The plain button had the focus: give it to the menu's own trigger. */
  focusTrigger: boolean;
  /** It was opened from the keyboard: focus the first item once open. */
  keyboard: boolean;
}

export interface DeferredMenu<T> {
  module: T | null;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Starts loading the menu's code ahead of use (hover, focus, press). */
  prepare: () => void;
  handoff: RefObject<MenuHandoff>;
  /** Props for the plain button shown until the code arrives: same look, same ARIA, opens on arrival. */
  triggerProps: {
    ref: RefObject<HTMLButtonElement | null>;
    type: 'button';
    'aria-haspopup': 'menu';
    'aria-expanded': false;
    onPointerEnter: () => void;
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => void;
    onFocus: () => void;
    onClick: () => void;
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  };
}

/**
 * A dropdown menu whose code (Radix) loads on first intent. Until it arrives the trigger is a plain
 * button with the menu button's ARIA; a press, click or opening key asks for the menu, which opens as soon
 * as its code is there, with the focus where the keyboard user expects it.
 */
export function useDeferredMenu<T>(code: OnDemand<T>): DeferredMenu<T> {
  const [module, setModule] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const handoff = useRef<MenuHandoff>({ focusTrigger: false, keyboard: false });
  useEffect(() => {
    const ready = code.loaded();
    if (ready) setModule(() => ready);
  }, [code]);
  const take = useCallback(
    () =>
      code.load().then((ready) => {
        // Read before the plain button gives way to the menu's trigger.
        handoff.current.focusTrigger ||= trigger.current !== null && document.activeElement === trigger.current;
        setModule(() => ready);
      }),
    [code],
  );
  const prepare = useCallback(() => void take().catch(() => {}), [take]);
  return {
    module,
    open,
    setOpen,
    prepare,
    handoff,
    triggerProps: {
      ref: trigger,
      type: 'button',
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: prepare,
      // A menu opens on press, as Radix's own trigger does: when the code arrives between press and
      // release (it is cached after the first page), the plain button is gone before its click.
      onPointerDown: (event) => {
        if (event.button !== 0 || event.ctrlKey) return prepare();
        setOpen(true);
        void take();
      },
      onFocus: prepare,
      onClick: () => {
        setOpen(true);
        void take();
      },
      onKeyDown: (event) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        handoff.current.keyboard = true;
        setOpen(true);
        void take();
      },
    },
  };
}

/**
 * What a dropdown taking over from its plain button needs: refs for its trigger and content, the focus
 * kept on the trigger when the button had it, and, when it was opened from the keyboard before its
 * code had arrived, focus on its first item, as Radix does for a keyboard open it sees itself (it only
 * learns of keys pressed after it mounted).
 */
export function useMenuHandoff(open: boolean, handoff: RefObject<MenuHandoff>) {
  const trigger = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (handoff.current.focusTrigger && !open) trigger.current?.focus();
    handoff.current.focusTrigger = false;
  }, []);
  useEffect(() => {
    if (!open || !handoff.current.keyboard) return;
    handoff.current.keyboard = false;
    let frame = 0;
    let tries = 10;
    const focusFirst = () => {
      const item = content.current?.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])');
      if (item) item.focus();
      else if (--tries > 0) frame = requestAnimationFrame(focusFirst);
    };
    frame = requestAnimationFrame(focusFirst);
    return () => cancelAnimationFrame(frame);
  }, [open]);
  return { trigger, content };
}
