import {
  memo,
  Suspense,
  use,
  useCallback,
  useEffect,
  useRef,
  type ComponentType,
  type NamedExoticComponent,
} from 'react';
import type { OnDemand } from '../ui/on-demand.ts';

/*
 * Hydration on first use. Much of what a visitor's page shows is already complete in the server's HTML and
 * only needs code once someone reaches for it (a like button, the comments). Such a part is rendered
 * directly on the server; in the browser its HTML stays as it is inside a Suspense boundary that waits for
 * the code, which loads on the first sign of use (a pointer over it, a touch, focus) or at once when the
 * island asks (a member's page). A press on one of its buttons before then is made again once it is live.
 */

type PartModule<P> = { default: ComponentType<P> };

export interface DeferredPart<P extends object> {
  /** Starts loading the code (again after a failed load). */
  load(): void;
  /**
   * The part. New props before it is live make React drop the server's HTML (nothing shows there until the
   * code is here, which they then load): give it props that stay the same.
   */
  Part: NamedExoticComponent<P & { onReady: () => void }>;
}

/** Calls `onReady` once mounted; renders nothing, so the server's HTML and the hydration match. */
function Ready({ onReady }: { onReady: () => void }) {
  useEffect(() => onReady(), []);
  return null;
}

/**
 * A part loaded by `code` in the browser. `server` is the same module, imported only on the server
 * (`import.meta.env.SSR ? await import(…) : null`), so the server renders it at once.
 */
export function deferredPart<P extends object>(
  code: OnDemand<PartModule<P>>,
  server: PartModule<P> | null,
): DeferredPart<P> {
  let ready: Promise<PartModule<P>> | null = null;
  let arrived: (module: PartModule<P>) => void = () => {};
  // A promise React reads with `use`, marked fulfilled once the code is here (then read without waiting).
  const thenable = () => {
    if (!ready) {
      const promise = new Promise<PartModule<P>>((resolve) => {
        arrived = (module) => {
          Object.assign(promise, { status: 'fulfilled', value: module });
          resolve(module);
        };
      });
      ready = promise;
      const loaded = code.loaded();
      if (loaded) arrived(loaded);
    }
    return ready;
  };
  const load = () => {
    thenable();
    code.load().then(
      (module) => arrived(module),
      (error: unknown) => console.warn('[deferred] code unavailable', error),
    );
  };
  function Gate({ onReady, ...props }: P & { onReady: () => void }) {
    const { default: Component } = server ?? use(thenable());
    return (
      <>
        <Component {...(props as P)} />
        <Ready onReady={onReady} />
      </>
    );
  }
  const Part = memo(function Part(props: P & { onReady: () => void }) {
    // Rendered again means new props: React shows nothing there until the code is here, so load it now.
    const rendered = useRef(false);
    useEffect(() => {
      if (rendered.current) load();
      rendered.current = true;
    });
    return (
      <Suspense fallback={null}>
        <Gate {...props} />
      </Suspense>
    );
  });
  return { load, Part };
}

/** What a press before the part is live is made again on: its buttons and previewable images. */
const REPLAYED = 'button, img[data-preview-src]';
const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

/**
 * Loads a deferred part on the first sign of use inside the returned `region`, or at once when `now`.
 * `onReady` goes to the part. Listens on the document, before React: on HTML it has not hydrated yet,
 * React stops these events at the island's root.
 */
export function useFirstUse<E extends HTMLElement>(load: () => void, now: boolean) {
  const region = useRef<E>(null);
  const live = useRef(false);
  const pressed = useRef<number | null>(null);

  const onReady = useCallback(() => {
    live.current = true;
    const index = pressed.current;
    pressed.current = null;
    if (index !== null)
      requestAnimationFrame(() => region.current?.querySelectorAll<HTMLElement>(REPLAYED)[index]?.click());
  }, []);

  useEffect(() => {
    if (now) load();
  }, [now]);

  useEffect(() => {
    const inside = (event: Event) => {
      const target = event.target instanceof Element ? event.target : null;
      return target && region.current?.contains(target) ? target : null;
    };
    const intent = (event: Event) => {
      if (!live.current && inside(event)) load();
    };
    const press = (event: MouseEvent) => {
      const pressable = live.current ? null : inside(event)?.closest(REPLAYED);
      if (!pressable || !region.current) return;
      event.preventDefault();
      event.stopPropagation();
      pressed.current = [...region.current.querySelectorAll(REPLAYED)].indexOf(pressable);
      load();
    };
    for (const name of INTENT_EVENTS) document.addEventListener(name, intent, { capture: true, passive: true });
    document.addEventListener('click', press, true);
    return () => {
      for (const name of INTENT_EVENTS) document.removeEventListener(name, intent, { capture: true });
      document.removeEventListener('click', press, true);
    };
  }, []);

  return { region, onReady };
}
