import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { IconName } from '../../../shared/icons.ts';
import { EMOJI_NAME_MAX, type Emoji, type EmojiSetSummary } from '../../../shared/emoji/emoji-model.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { emojiStore, loadEmojiApi } from '../../../stores/emoji.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import { errorMessage } from './EmojiAdd.tsx';
import { EmojiThumb } from './EmojiThumb.tsx';

/** `list` with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

function IconButton({
  icon,
  label,
  onClick,
  disabled = false,
  focusKey,
}: {
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Lets focus be put back on this button after the list is drawn again (`useFocusLater`). */
  focusKey?: string;
}) {
  return (
    <button
      type="button"
      className={iconButton}
      disabled={disabled}
      onClick={onClick}
      aria-label={label}
      data-focus={focusKey}
    >
      <Icon name={icon} className="size-4" />
    </button>
  );
}

const iconButton =
  'inline-flex items-center justify-center rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white';

/**
 * Keeps keyboard focus through a change that redraws the list: `focusLater(keys)` focuses the first of
 * those buttons (`data-focus`) that exists and is enabled once it does, so moving a set or an emoji keeps
 * focus on the moved item's button, and deleting one moves it to a neighbour.
 */
function useFocusLater<T extends HTMLElement>() {
  const root = useRef<T>(null);
  const wanted = useRef<string[] | null>(null);
  useEffect(() => {
    if (!wanted.current) return;
    for (const key of wanted.current) {
      const element = root.current?.querySelector<HTMLButtonElement>(`[data-focus="${key}"]`);
      if (element && !element.disabled) {
        element.focus();
        wanted.current = null;
        return;
      }
    }
  });
  return { root, focusLater: (keys: string[]) => (wanted.current = keys) };
}

/** /create/emoji/manage: every set in picker order; those the creator manages can be changed. */
function EmojiManager() {
  const t = useT();
  const [sets, setSets] = useState<EmojiSetSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const { root, focusLater } = useFocusLater<HTMLOListElement>();

  const refresh = async () => {
    try {
      const { client, contract } = await loadEmojiApi();
      setSets((await client.call(contract.listSets)).data);
      setError(null);
    } catch (failure) {
      setError(t('emoji.loadFailed', { reason: errorMessage(failure) }));
    }
  };
  useEffect(() => void refresh(), []);

  /** Runs a change, then shows the sets as they are now; the picker cache starts again. */
  const change = async (run: () => Promise<unknown>, done?: string) => {
    if (pending) return false;
    setPending(true);
    try {
      await run();
      emojiStore.invalidate();
      if (done) toast.success(done);
      await refresh();
      return true;
    } catch (failure) {
      toast.error(errorMessage(failure));
      await refresh();
      return false;
    } finally {
      setPending(false);
    }
  };

  const moveSet = (set: EmojiSetSummary, to: number, step: -1 | 1) => {
    focusLater([`set-${set.id}-${step < 0 ? 'up' : 'down'}`, `set-${set.id}-${step < 0 ? 'down' : 'up'}`]);
    return change(async () => {
      const { client, contract } = await loadEmojiApi();
      await client.call(contract.updateSet, { params: { id: set.id }, body: { updatedEmojiSet: { order: to } } });
    });
  };

  if (error) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {error}
      </p>
    );
  }
  if (!sets) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('emoji.loading')}</p>;
  if (sets.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('emojiAdmin.noSets')}</p>;

  return (
    <ol ref={root} className="flex flex-col gap-3" aria-busy={pending}>
      {sets.map((set, index) => (
        <SetRow
          key={set.id}
          set={set}
          first={index === 0}
          last={index === sets.length - 1}
          onMove={(step) => void moveSet(set, index + step, step)}
          onDeleted={() => {
            const neighbour = sets[index + 1] ?? sets[index - 1];
            if (neighbour) focusLater([`set-${neighbour.id}-toggle`]);
          }}
          change={change}
          pending={pending}
        />
      ))}
    </ol>
  );
}

interface SetRowProps {
  set: EmojiSetSummary;
  first: boolean;
  last: boolean;
  onMove: (step: -1 | 1) => void;
  onDeleted: () => void;
  change: (run: () => Promise<unknown>, done?: string) => Promise<boolean>;
  pending: boolean;
}

function SetRow({ set, first, last, onMove, onDeleted, change, pending }: SetRowProps) {
  const { root, focusLater } = useFocusLater<HTMLLIElement>();
  const t = useT();
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(set.name);
  const [emojis, setEmojis] = useState<Emoji[] | null>(null);
  const panelId = useId();
  const nameId = useId();

  useEffect(() => {
    if (!open) return;
    let live = true;
    void (async () => {
      const { client, contract } = await loadEmojiApi();
      const answer = await client.call(contract.getSet, { query: { emojiSetId: set.id } });
      if (live) setEmojis(answer.data.emojis);
    })().catch((failure: unknown) => toast.error(t('emoji.loadFailed', { reason: errorMessage(failure) })));
    return () => {
      live = false;
    };
  }, [open, set.updatedAt]);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    const ok = await change(
      async () => {
        const { client, contract } = await loadEmojiApi();
        await client.call(contract.updateSet, { params: { id: set.id }, body: { updatedEmojiSet: { name: wanted } } });
      },
      t('emojiAdmin.renamed', { name: wanted }),
    );
    if (ok) setRenaming(false);
  };
  const removeSet = async () => {
    const sure = await confirmDialog({
      message: t('emojiAdmin.deleteSetConfirm', { name: set.name, count: set.emojiCount }),
      confirmText: t('emojiAdmin.deleteSet'),
    });
    if (!sure) return;
    onDeleted();
    await change(
      async () => {
        const { client, contract } = await loadEmojiApi();
        await client.call(contract.deleteSet, { params: { id: set.id } });
      },
      t('emojiAdmin.deletedSet', { name: set.name }),
    );
  };
  const moveEmoji = (from: number, to: number) => {
    if (!emojis) return;
    const moved = emojis[from]!.id;
    const [ahead, behind] = to < from ? ['before', 'after'] : ['after', 'before'];
    focusLater([`emoji-${moved}-${ahead}`, `emoji-${moved}-${behind}`]);
    const order = moveItem(emojis, from, to);
    void change(async () => {
      const { client, contract } = await loadEmojiApi();
      const answer = await client.call(contract.updateSet, {
        params: { id: set.id },
        body: { updatedEmojiSet: { emojiIds: order.map((emoji) => emoji.id) } },
      });
      setEmojis(answer.data.emojis);
    });
  };
  const removeEmoji = async (emoji: Emoji, index: number) => {
    if (
      !(await confirmDialog({
        message: t('emojiAdmin.deleteEmojiConfirm', { name: emoji.name }),
        confirmText: t('emojiAdmin.delete'),
      }))
    )
      return;
    const neighbour = emojis?.[index + 1] ?? emojis?.[index - 1];
    focusLater(neighbour ? [`emoji-${neighbour.id}-delete`] : [`set-${set.id}-toggle`]);
    await change(
      async () => {
        const { client, contract } = await loadEmojiApi();
        const answer = await client.call(contract.deleteEmoji, {
          params: { id: emoji.id },
          body: { emojiSetId: set.id },
        });
        setEmojis(answer.data.emojis);
      },
      t('emojiAdmin.deletedEmoji', { name: emoji.name }),
    );
  };

  return (
    <li ref={root} className="hk-card">
      <div className="flex flex-wrap items-center gap-3 p-3">
        {set.cover ? <EmojiThumb src={set.cover} /> : <span className="size-9 rounded bg-zinc-100 dark:bg-zinc-800" />}
        {renaming ? (
          <form onSubmit={rename} className="flex flex-1 flex-wrap items-center gap-2">
            <label htmlFor={nameId} className="sr-only">
              {t('emojiAdmin.setName')}
            </label>
            <input
              id={nameId}
              value={name}
              maxLength={EMOJI_NAME_MAX}
              onChange={(event) => setName(event.target.value)}
              className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900"
            />
            <button type="submit" disabled={pending || !name.trim()} className="hk-btn hk-btn-primary h-8 px-3">
              {t('emojiAdmin.save')}
            </button>
            <button
              type="button"
              onClick={() => {
                setRenaming(false);
                setName(set.name);
              }}
              className="hk-btn hk-btn-ghost h-8 px-3"
            >
              {t('emojiAdmin.cancel')}
            </button>
          </form>
        ) : (
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium text-zinc-900 dark:text-white">{set.name}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {t('emojiAdmin.emojiCount', { count: set.emojiCount })}
              {!set.canManage && ` · ${t('emojiAdmin.readOnly')}`}
            </p>
          </div>
        )}
        <div className="flex items-center gap-1">
          {set.canManage && !renaming && (
            <>
              <IconButton
                icon="arrow-up"
                label={t('emojiAdmin.moveUp', { name: set.name })}
                focusKey={`set-${set.id}-up`}
                disabled={first}
                onClick={() => onMove(-1)}
              />
              <IconButton
                icon="arrow-down"
                label={t('emojiAdmin.moveDown', { name: set.name })}
                focusKey={`set-${set.id}-down`}
                disabled={last}
                onClick={() => onMove(1)}
              />
              <IconButton
                icon="pencil"
                label={`${t('emojiAdmin.rename')} ${set.name}`}
                onClick={() => setRenaming(true)}
              />
              <a
                href={`/create/emoji?set=${set.id}`}
                className={iconButton}
                aria-label={`${t('emojiAdmin.addMore')} · ${set.name}`}
              >
                <Icon name="plus" className="size-4" />
              </a>
              <IconButton
                icon="trash"
                label={`${t('emojiAdmin.deleteSet')} ${set.name}`}
                onClick={() => void removeSet()}
              />
            </>
          )}
          <button
            type="button"
            className={iconButton}
            aria-expanded={open}
            aria-controls={panelId}
            data-focus={`set-${set.id}-toggle`}
            aria-label={t(open ? 'emojiAdmin.hide' : 'emojiAdmin.show', { name: set.name })}
            onClick={() => setOpen((value) => !value)}
          >
            <Icon name="chevron-down" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
          </button>
        </div>
      </div>
      {open && (
        <div id={panelId} className="border-t border-zinc-200 p-3 dark:border-zinc-700">
          {!emojis ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('emoji.loading')}</p>
          ) : emojis.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('emoji.emptySet')}</p>
          ) : (
            <ul className="grid grid-cols-[repeat(auto-fill,minmax(7.5rem,1fr))] gap-2">
              {emojis.map((emoji, index) => {
                return (
                  <li
                    key={emoji.id}
                    className="flex flex-col items-center gap-1 rounded-lg border border-zinc-200 p-2 dark:border-zinc-700"
                  >
                    <EmojiThumb src={emoji.src} />
                    <span className="max-w-full truncate text-xs text-zinc-700 dark:text-zinc-200">{emoji.name}</span>
                    {set.canManage && (
                      <div className="flex">
                        <IconButton
                          icon="chevron-left"
                          label={t('emojiAdmin.moveBefore', { name: emoji.name })}
                          focusKey={`emoji-${emoji.id}-before`}
                          disabled={index === 0}
                          onClick={() => moveEmoji(index, index - 1)}
                        />
                        <IconButton
                          icon="chevron-right"
                          label={t('emojiAdmin.moveAfter', { name: emoji.name })}
                          focusKey={`emoji-${emoji.id}-after`}
                          disabled={index === emojis.length - 1}
                          onClick={() => moveEmoji(index, index + 1)}
                        />
                        <IconButton
                          icon="trash"
                          label={t('emojiAdmin.deleteEmoji', { name: emoji.name })}
                          focusKey={`emoji-${emoji.id}-delete`}
                          onClick={() => void removeEmoji(emoji, index)}
                        />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

export default withLocale(EmojiManager);
