import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  EMOJI_ADD_BATCH_MAX,
  EMOJI_NAME_MAX,
  EMOJI_SET_MAX_EMOJIS,
  type EmojiSetSummary,
} from '../../../shared/emoji/emoji-model.ts';
import { emojiStore, loadEmojiApi } from '../../../stores/emoji.ts';
import { toast } from '../../../stores/toast.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import ImageUploader, { type UploadedEntry } from './ImageUploader.tsx';

/** Emoji images are shown at 36 px: they are kept at most 256 px on a side. */
export const EMOJI_UPLOAD_COMPRESS = { resize: true, maxWidth: 256, maxHeight: 256 } as const;

/** A name for an emoji from its file name: what the marker grammar accepts, at most EMOJI_NAME_MAX. */
export function emojiNameFromFile(fileName: string | null, fallback: string): string {
  const base = (fileName ?? '').replace(/\.[^.]*$/, '').normalize('NFC');
  const name = base
    .replace(/[^\p{L}\p{M}\p{Nd}_.-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, EMOJI_NAME_MAX);
  return name && !/^\.+$/.test(name) ? name : fallback;
}

export const errorMessage = (error: unknown) =>
  error instanceof Error && error.message ? error.message : String(error);

/**
 * /create/emoji: create a set or choose one the creator manages, upload many images at once, name them
 * and add them to the set in one go.
 */
function EmojiAdd({ initialSet }: { initialSet: number | null }) {
  const t = useT();
  const [sets, setSets] = useState<EmojiSetSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number | null>(initialSet);
  const [newName, setNewName] = useState('');
  const [createError, setCreateError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [entries, setEntries] = useState<UploadedEntry[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const ids = { set: useId(), name: useId(), nameHint: useId(), createError: useId() };

  const refresh = async (select?: number) => {
    try {
      const { client, contract } = await loadEmojiApi();
      const answer = await client.call(contract.listSets);
      const manageable = answer.data.filter((set) => set.canManage);
      setSets(manageable);
      setLoadError(null);
      setChosen(
        (current) => select ?? (manageable.some((set) => set.id === current) ? current : (manageable[0]?.id ?? null)),
      );
    } catch (error) {
      setLoadError(t('emoji.loadFailed', { reason: errorMessage(error) }));
    }
  };
  useEffect(() => void refresh(), []);

  // Images uploaded for one set belong to its folder: choosing another set starts the list again.
  useEffect(() => {
    setEntries([]);
    setNames({});
    setAddError(null);
  }, [chosen]);

  const set = sets?.find((entry) => entry.id === chosen) ?? null;
  const room = set ? Math.max(0, Math.min(EMOJI_ADD_BATCH_MAX, EMOJI_SET_MAX_EMOJIS - set.emojiCount)) : 0;

  const createSet = async (event: FormEvent) => {
    event.preventDefault();
    if (creating) return;
    setCreating(true);
    setCreateError(null);
    try {
      const { client, contract } = await loadEmojiApi();
      const answer = await client.call(contract.createSet, { body: { name: newName.trim() } });
      toast.success(t('emojiAdmin.created', { name: answer.data.name }));
      setNewName('');
      emojiStore.invalidate();
      await refresh(answer.data.id);
    } catch (error) {
      setCreateError(errorMessage(error));
    } finally {
      setCreating(false);
    }
  };

  const onUploaded = (_urls: string[], done: UploadedEntry[]) => {
    setEntries(done);
    setNames((current) => {
      const next: Record<string, string> = {};
      done.forEach((entry, index) => {
        next[entry.url] =
          current[entry.url] ?? emojiNameFromFile(entry.fileName, `emoji${(set?.emojiCount ?? 0) + index + 1}`);
      });
      return next;
    });
  };

  const add = async () => {
    if (!set || adding) return;
    if (busy) return setAddError(t('emojiAdmin.waiting'));
    if (entries.length === 0) return setAddError(t('emojiAdmin.nothing'));
    setAdding(true);
    setAddError(null);
    try {
      const { client, contract } = await loadEmojiApi();
      await client.call(contract.addEmojis, {
        body: {
          emojiSetId: set.id,
          emojis: entries.map((entry) => ({ name: (names[entry.url] ?? '').trim(), src: entry.url })),
        },
      });
      toast.success(t('emojiAdmin.added', { count: entries.length }));
      setEntries([]);
      setNames({});
      setRound((value) => value + 1);
      emojiStore.invalidate();
      await refresh(set.id);
    } catch (error) {
      setAddError(errorMessage(error));
    } finally {
      setAdding(false);
    }
  };

  if (loadError) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {loadError}
      </p>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <section className="hk-card p-5">
        <h2 className="mb-3 text-base font-semibold text-zinc-900 dark:text-white">{t('emojiAdmin.set')}</h2>
        {sets && sets.length > 0 && (
          <div className="mb-4 flex flex-col gap-1">
            <label htmlFor={ids.set} className="text-sm font-medium text-zinc-700 dark:text-zinc-200">
              {t('emojiAdmin.chooseSet')}
            </label>
            <select
              id={ids.set}
              value={chosen ?? ''}
              onChange={(event) => setChosen(Number(event.target.value))}
              className="max-w-sm rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900"
            >
              {sets.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name} · {t('emojiAdmin.emojiCount', { count: entry.emojiCount })}
                </option>
              ))}
            </select>
          </div>
        )}
        <form onSubmit={createSet} noValidate className="flex flex-col gap-1">
          <label htmlFor={ids.name} className="text-sm font-medium text-zinc-700 dark:text-zinc-200">
            {t('emojiAdmin.newSet')}
          </label>
          <div className="flex max-w-md gap-2">
            <input
              id={ids.name}
              value={newName}
              maxLength={EMOJI_NAME_MAX}
              onChange={(event) => setNewName(event.target.value)}
              aria-describedby={createError ? `${ids.nameHint} ${ids.createError}` : ids.nameHint}
              aria-invalid={createError ? true : undefined}
              className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900"
            />
            <button type="submit" disabled={creating || !newName.trim()} className="hk-btn hk-btn-primary">
              {t('emojiAdmin.createSet')}
            </button>
          </div>
          <p id={ids.nameHint} className="text-xs text-zinc-600 dark:text-zinc-400">
            {t('emojiAdmin.nameHint', { max: EMOJI_NAME_MAX })}
          </p>
          {createError && (
            <p id={ids.createError} role="alert" className="text-sm text-red-700 dark:text-red-400">
              {createError}
            </p>
          )}
        </form>
      </section>

      {set && (
        <section className="hk-card p-5">
          <h2 className="text-base font-semibold text-zinc-900 dark:text-white">
            {t('emojiAdmin.upload')} · {set.name}
          </h2>
          <p className="mt-1 mb-4 text-xs text-zinc-600 dark:text-zinc-400">
            {t('emojiAdmin.uploadHint', { max: EMOJI_SET_MAX_EMOJIS })}
          </p>
          <ImageUploader
            key={`${set.id}-${round}`}
            target={{ type: 'emoji', id: set.id }}
            max={room}
            size={96}
            compress={EMOJI_UPLOAD_COMPRESS}
            onChange={onUploaded}
            onBusyChange={setBusy}
            label={t('emojiAdmin.upload')}
          />
          {entries.length > 0 && (
            <ul className="mt-4 grid gap-2 sm:grid-cols-2">
              {entries.map((entry, index) => (
                <li key={entry.url} className="flex items-center gap-2">
                  <img src={entry.url} alt="" width={36} height={36} className="size-9 rounded object-contain" />
                  <label className="sr-only" htmlFor={`${ids.name}-${index}`}>
                    {t('emojiAdmin.emojiName', { index: index + 1 })}
                  </label>
                  <input
                    id={`${ids.name}-${index}`}
                    value={names[entry.url] ?? ''}
                    maxLength={EMOJI_NAME_MAX}
                    onChange={(event) => setNames((current) => ({ ...current, [entry.url]: event.target.value }))}
                    className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900"
                  />
                </li>
              ))}
            </ul>
          )}
          {addError && (
            <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
              {addError}
            </p>
          )}
          <button type="button" onClick={() => void add()} disabled={adding} className="mt-4 hk-btn hk-btn-primary">
            {t('emojiAdmin.add')}
          </button>
        </section>
      )}
    </div>
  );
}

export default withLocale(EmojiAdd);
