import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { EMOJI_PICKER_HEIGHT_PX, type Emoji, type EmojiSetSummary } from '../../../shared/emoji/emoji-model.ts';
import { emojiStore } from '../../../stores/emoji.ts';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { EmojiThumb } from './EmojiThumb.tsx';

export interface EmojiPickerProps {
  /** Called with the marker to insert, `[emoji:{set}/{name}]`. */
  onSelect: (marker: string) => void;
  /** Opens the panel above the button (inputs at the bottom of a page). */
  placement?: 'below' | 'above';
}

/** Emoji per row of the grid; arrow keys move by one, up and down by a row. */
const COLUMNS = 8;

/** The next index for an arrow/Home/End key in a list of `count` items laid out `columns` wide, or null. */
export function gridMove(key: string, index: number, count: number, columns: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowRight':
      return Math.min(index + 1, count - 1);
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'ArrowDown':
      return index + columns < count ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export const emojiMarker = (set: string, name: string) => `[emoji:${set}/${name}]`;

/**
 * The emoji picker (spec §2.11): a button opening the sets as tabs and the chosen set's emojis in a
 * 250 px area. Tabs and emojis are reached with the arrow keys; Enter or a click inserts; Escape closes
 * and gives focus back to the button. Visitors are asked to log in (spec §6).
 */
export default function EmojiPicker({ onSelect, placement = 'below' }: EmojiPickerProps) {
  const t = useT();
  const session = useStore($session);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !trigger.current?.contains(target)) setOpen(false);
    };
    // Escape closes wherever focus is while the picker is open.
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    // Focus moves into the picker: to the panel at once, to the chosen set's tab when it is there.
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const toggle = () => {
    if (!session) {
      toast.warning(t('emoji.loginFirst'));
      return;
    }
    setOpen((value) => !value);
  };
  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  return (
    <div className="relative inline-block">
      <button
        ref={trigger}
        type="button"
        onClick={toggle}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100 hover:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        <Icon name="smile" className="size-5" />
        <span>{t('emoji.open')}</span>
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          role="dialog"
          aria-label={t('emoji.picker')}
          tabIndex={-1}
          onBlur={(event) => {
            // Tabbing out of the picker closes it (focus stays where it went).
            const next = event.relatedTarget as Node | null;
            if (next && !panel.current?.contains(next) && !trigger.current?.contains(next)) setOpen(false);
          }}
          className={`absolute left-0 z-50 w-[min(22rem,calc(100vw-2rem))] focus:outline-none rounded-lg border border-zinc-200 bg-white shadow-lg dark:border-zinc-700 dark:bg-zinc-900 ${placement === 'above' ? 'bottom-full mb-2' : 'top-full mt-2'}`}
        >
          <PickerBody
            onSelect={(marker) => {
              onSelect(marker);
              close();
            }}
          />
        </div>
      )}
    </div>
  );
}

function PickerBody({ onSelect }: { onSelect: (marker: string) => void }) {
  const t = useT();
  const state = useStore(emojiStore.$sets);
  const setEmojis = useStore(emojiStore.$setEmojis);
  const [chosen, setChosen] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const tabsId = useId();

  useEffect(() => {
    void emojiStore.loadSets().catch(() => undefined);
  }, []);

  const sets: EmojiSetSummary[] = ('sets' in state ? state.sets : null) ?? [];
  const current = sets.find((set) => set.id === chosen) ?? sets[0] ?? null;

  useEffect(() => {
    if (!current) return;
    let live = true;
    setFailed(null);
    setFocusIndex(0);
    emojiStore.loadSetEmojis(current).catch((error: unknown) => {
      // A late failure of a set no longer shown is not this set's.
      if (live) setFailed(error instanceof Error && error.message ? error.message : t('emoji.unknownError'));
    });
    return () => {
      live = false;
    };
  }, [current?.id, current?.updatedAt]);

  // Once the sets are there, focus goes to the chosen one's tab (unless the reader moved it already).
  const hasSets = sets.length > 0;
  useEffect(() => {
    if (!hasSets) return;
    const panelElement = tabs.current[0]?.closest('[role=dialog]');
    const active = document.activeElement;
    // Focus is still on the button that opened the picker, or on the panel itself: move it to the tab.
    if (active === panelElement || !panelElement?.contains(active))
      tabs.current[Math.max(0, sets.indexOf(current!))]?.focus();
  }, [hasSets]);

  const emojis: Emoji[] | undefined = current ? setEmojis[current.id] : undefined;

  const onTabKey = (event: KeyboardEvent, index: number) => {
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const wrapped = (next + sets.length) % sets.length;
    setChosen(sets[wrapped]!.id);
    tabs.current[wrapped]?.focus();
  };
  const onCellKey = (event: KeyboardEvent, index: number) => {
    const next = gridMove(event.key, index, emojis?.length ?? 0, COLUMNS);
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    cells.current[next]?.focus();
  };

  if (state.status === 'error' && sets.length === 0) {
    return (
      <PickerMessage>
        <p role="alert">{t('emoji.loadFailed', { reason: state.message || t('emoji.unknownError') })}</p>
        <button
          type="button"
          className="mt-2 rounded-md border border-zinc-300 px-3 py-1 text-sm hover:border-accent dark:border-zinc-600"
          onClick={() => void emojiStore.loadSets(true).catch(() => undefined)}
        >
          {t('emoji.retry')}
        </button>
      </PickerMessage>
    );
  }
  if (sets.length === 0) {
    return <PickerMessage>{state.status === 'ready' ? t('emoji.noSets') : t('emoji.loading')}</PickerMessage>;
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label={t('emoji.sets')}
        id={tabsId}
        className="flex gap-1 overflow-x-auto border-b border-zinc-200 p-1.5 dark:border-zinc-700"
      >
        {sets.map((set, index) => {
          const selected = set.id === current?.id;
          return (
            <button
              key={set.id}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              id={`${tabsId}-tab-${set.id}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${tabsId}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setChosen(set.id)}
              onKeyDown={(event) => onTabKey(event, index)}
              className={`flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1 text-sm ${selected ? 'bg-primary-100 font-medium text-accent dark:bg-primary-900/50' : 'text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'}`}
            >
              {set.cover && <EmojiThumb src={set.cover} small />}
              {set.name}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${tabsId}-panel`}
        aria-labelledby={current ? `${tabsId}-tab-${current.id}` : undefined}
        style={{ height: EMOJI_PICKER_HEIGHT_PX }}
        className="overflow-y-auto p-2"
      >
        {failed ? (
          <p role="alert" className="p-2 text-sm text-red-700 dark:text-red-400">
            {t('emoji.loadFailed', { reason: failed })}
          </p>
        ) : !emojis ? (
          <p className="p-2 text-sm text-zinc-600 dark:text-zinc-400">{t('emoji.loading')}</p>
        ) : emojis.length === 0 ? (
          <p className="p-2 text-sm text-zinc-600 dark:text-zinc-400">{t('emoji.emptySet')}</p>
        ) : (
          <div role="group" aria-label={t('emoji.gridHint')} className="grid grid-cols-8 gap-1">
            {emojis.map((emoji, index) => {
              const code = `${current!.name}/${emoji.name}`;
              return (
                <button
                  key={emoji.id}
                  ref={(element) => {
                    cells.current[index] = element;
                  }}
                  type="button"
                  tabIndex={index === focusIndex ? 0 : -1}
                  title={emoji.name}
                  aria-label={t('emoji.insert', { code })}
                  onClick={() => onSelect(emojiMarker(current!.name, emoji.name))}
                  onKeyDown={(event) => onCellKey(event, index)}
                  className="flex aspect-square items-center justify-center rounded-md hover:bg-zinc-100 focus-visible:bg-zinc-100 dark:hover:bg-zinc-800 dark:focus-visible:bg-zinc-800"
                >
                  <EmojiThumb src={emoji.src} />
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

function PickerMessage({ children }: { children: React.ReactNode }) {
  return (
    <div
      style={{ height: EMOJI_PICKER_HEIGHT_PX }}
      className="flex flex-col items-center justify-center p-4 text-center text-sm text-zinc-600 dark:text-zinc-400"
    >
      {children}
    </div>
  );
}
