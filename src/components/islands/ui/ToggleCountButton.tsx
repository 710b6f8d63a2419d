import { useEffect, useEffectEvent } from 'react';
import type { IconName } from '../../../shared/icons.ts';
import type { Outcome } from '../../../stores/catalogue-client.ts';
import { toast } from '../../../stores/toast.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { Icon } from './Icon.tsx';

/** A toggle's state for one target, as its store holds it. */
export interface ToggleState {
  /** null until the server has said (visitors never learn it). */
  on: boolean | null;
  count: number;
  /** A request is out: the button is disabled until it settles. */
  pending: boolean;
}

/** How one kind of toggle looks: fixed per kind, so a module constant. */
export interface ToggleLook {
  /** Size and spacing, shared by the login link and the button. */
  base: string;
  loginClass: string;
  onClass: string;
  offClass: string;
  icon: IconName;
  /** The icon once on, when it changes. */
  onIcon?: IconName;
  /** Fill the icon once on. */
  fillOn?: boolean;
  loginTestId: string;
  buttonTestId: string;
  countTestId?: string;
  /** The count is shown elsewhere (a user card's figures): the button says only on or off. */
  countless?: boolean;
  /** Prefix of the console warning when the viewer's state cannot be read. */
  logTag: string;
}

/** The favourite button of a game's and a series' banner: filled and coloured when on, an outline waiting to be pressed when off. */
export const FAVORITE_LOOK: ToggleLook = {
  base: 'hk-btn h-10 gap-2 px-4',
  loginClass: 'hk-btn-ghost',
  onClass: 'bg-rose-700 text-white shadow-sm shadow-rose-700/30 hover:bg-rose-800',
  offClass: 'hk-btn-ghost bg-white/80 hover:text-rose-700 dark:bg-zinc-900/70 dark:hover:text-rose-300',
  icon: 'heart',
  fillOn: true,
  loginTestId: 'favorite-login',
  buttonTestId: 'favorite-button',
  logTag: 'favorite',
};

export interface ToggleTexts {
  login: string;
  on: string;
  off: string;
  title: (count: number) => string;
  failed: (message: string) => string;
  /** Shown when a visitor follows the login link. */
  loginNotice?: string;
}

interface ToggleCountButtonProps {
  /** Which target: the store is seeded and asked again when it changes. */
  target: string;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
  /** The store's state for the target (undefined until seeded). */
  state: ToggleState | undefined;
  seed: () => void;
  check: () => Promise<Outcome>;
  toggle: () => Promise<Outcome | { ok: false; busy: true }>;
  look: ToggleLook;
  texts: ToggleTexts;
}

/**
 * An optimistic on/off button with its count (favourite, follow): one request at a time, visitors get a
 * link to log in, and a member's state is asked for once hydrated, so the page stays the same for all.
 */
export function ToggleCountButton(props: ToggleCountButtonProps) {
  const { target, initialCount, initialLoggedIn, loginHref, state, look, texts } = props;
  const viewer = useViewer(initialLoggedIn);
  const seed = useEffectEvent(props.seed);
  const check = useEffectEvent(() => {
    void props.check().then((outcome) => {
      if (!outcome.ok) console.warn(`[${look.logTag}] state unknown:`, outcome.message);
    });
  });

  useEffect(() => seed(), [target, initialCount]);
  useEffect(() => {
    if (viewer.ready && viewer.loggedIn) check();
  }, [target, viewer.ready, viewer.loggedIn]);

  // Until hydrated, exactly what the server rendered.
  const entry: ToggleState = (viewer.ready ? state : undefined) ?? { on: null, count: initialCount, pending: false };
  const count = look.countless ? null : (
    <span className="font-normal tabular-nums" data-testid={look.countTestId}>
      {entry.count}
    </span>
  );

  if (!viewer.loggedIn) {
    const notice = texts.loginNotice;
    return (
      <a
        href={loginHref}
        onClick={notice ? () => toast.warning(notice) : undefined}
        className={`${look.base} ${look.loginClass}`}
        data-testid={look.loginTestId}
      >
        <Icon name={look.icon} className="size-4" />
        {texts.login}
        {count}
      </a>
    );
  }

  const on = entry.on === true;
  const toggle = async () => {
    const outcome = await props.toggle();
    if (!outcome.ok && !('busy' in outcome)) toast.error(texts.failed(outcome.message));
  };
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      disabled={entry.pending}
      aria-pressed={on}
      aria-busy={entry.pending}
      data-state={entry.on === null ? 'unknown' : on ? 'on' : 'off'}
      title={look.countless ? undefined : texts.title(entry.count)}
      className={`${look.base} ${on ? look.onClass : look.offClass}`}
      data-testid={look.buttonTestId}
    >
      <Icon
        name={on ? (look.onIcon ?? look.icon) : look.icon}
        className={on && look.fillOn ? 'size-4 fill-current' : 'size-4'}
      />
      {on ? texts.on : texts.off}
      {count}
    </button>
  );
}
