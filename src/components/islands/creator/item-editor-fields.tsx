import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { EditType } from '../../../shared/creator/creator-model.ts';
import type { LookupHit } from '../../../shared/creator/manage.contract.ts';
import { translateRef, type MessageKey } from '../../../shared/i18n/index.ts';
import { loadManageApi } from '../../../stores/item-editor.ts';
import { useT } from '../ui/use-t.ts';

/** The editors' form controls: a labelled field with its message, text lists, and the name picker. */

export const inputClass =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 focus:border-accent focus:outline-none aria-[invalid=true]:border-red-500 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';
export const smallInputClass =
  'rounded-lg border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

export const fieldLabelKey = (field: string) => `revision.field.${field}` as MessageKey;

/** A field: its label, the control, and its problem right below (the control names it with aria-describedby). */
export function Field({
  field,
  label,
  error,
  children,
  htmlFor,
  group = false,
}: {
  field: string;
  label: string;
  error: string | undefined;
  children: (ids: { errorId: string | undefined; invalid: boolean }) => ReactNode;
  htmlFor?: string;
  group?: boolean;
}) {
  const t = useT();
  const errorId = `${useId()}-error`;
  const ids = { errorId: error ? errorId : undefined, invalid: Boolean(error) };
  const message = error ? translateRef(t, error) : null;
  const body = (
    <>
      {children(ids)}
      {message && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400" data-field-error={field}>
          {message}
        </p>
      )}
    </>
  );
  return group ? (
    <fieldset className="flex flex-col gap-1.5" data-field={field}>
      <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">{label}</legend>
      {body}
    </fieldset>
  ) : (
    <div className="flex flex-col gap-1.5" data-field={field}>
      <label htmlFor={htmlFor} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {body}
    </div>
  );
}

/** A list of short texts (aliases): each removable, a new one added from the box. */
export function TextList({
  values,
  onChange,
  label,
  max,
  itemMax,
  invalid,
  errorId,
}: {
  values: string[];
  onChange: (values: string[]) => void;
  label: string;
  max: number;
  itemMax: number;
  invalid: boolean;
  errorId: string | undefined;
}) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const add = () => {
    const value = draft.trim();
    if (!value || values.includes(value) || values.length >= max) return;
    onChange([...values, value]);
    setDraft('');
  };
  return (
    <div className="flex flex-col gap-2">
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {values.map((value) => (
            <li
              key={value}
              className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-1 pr-1 pl-3 text-sm text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200"
            >
              {value}
              <button
                type="button"
                className="rounded-full px-1.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-white"
                aria-label={t('itemEditor.removeNamed', { name: value })}
                onClick={() => onChange(values.filter((v) => v !== value))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-2">
        <input
          className={inputClass}
          value={draft}
          maxLength={itemMax}
          aria-label={label}
          aria-invalid={invalid}
          aria-describedby={errorId}
          placeholder={t('itemEditor.alias.placeholder')}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button
          type="button"
          className="hk-btn hk-btn-ghost shrink-0"
          onClick={add}
          disabled={!draft.trim() || values.length >= max}
        >
          {t('itemEditor.add')}
        </button>
      </div>
    </div>
  );
}

/** The names of linked entries (`type:id` → hit), shared by the lists of one editor. */
export type NameBook = Record<string, LookupHit>;
export const nameKey = (type: EditType, id: number) => `${type}:${id}`;

export function hitName(hit: LookupHit | undefined, id: number, zh: boolean): string {
  if (!hit) return `#${id}`;
  return (zh && hit.nameZh) || hit.name || hit.nameZh || `#${id}`;
}

/**
 * Searches entries of a type by name as one types (after a short pause) and offers up to 20; choosing
 * one calls `onPick`. Used to add a link, or to set a single link (a volume's series, a voice).
 */
export function Picker({
  type,
  label,
  onPick,
  exclude = [],
  compact = false,
}: {
  type: EditType;
  label: string;
  onPick: (hit: LookupHit) => void;
  exclude?: readonly number[];
  compact?: boolean;
}) {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const [hits, setHits] = useState<LookupHit[] | null>(null);
  const [searching, setSearching] = useState(false);
  const listId = useId();
  const request = useRef(0);
  useEffect(() => {
    const wanted = keyword.trim();
    if (!wanted) {
      setHits(null);
      return;
    }
    const mine = ++request.current;
    setSearching(true);
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const { client, contract } = await loadManageApi();
          const answer = await client.call(contract.lookup, { params: { type }, query: { keyword: wanted } });
          if (mine === request.current) setHits(answer.data);
        } catch {
          if (mine === request.current) setHits([]);
        } finally {
          if (mine === request.current) setSearching(false);
        }
      })();
    }, 250);
    return () => clearTimeout(timer);
  }, [keyword, type]);
  const shown = (hits ?? []).filter((hit) => !exclude.includes(hit.id));
  return (
    <div className="relative">
      <input
        className={compact ? `${smallInputClass} w-full` : inputClass}
        type="search"
        value={keyword}
        aria-label={label}
        // Points at the results only while they are there (an id naming nothing is not valid ARIA).
        aria-controls={keyword.trim() ? listId : undefined}
        aria-autocomplete="list"
        placeholder={t('itemEditor.picker.placeholder')}
        maxLength={100}
        onChange={(event) => setKeyword(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setKeyword('');
          if (event.key === 'Enter') event.preventDefault();
        }}
      />
      {keyword.trim() && (
        <ul
          id={listId}
          aria-live="polite"
          className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-lg bg-white shadow-lg ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-700"
        >
          {searching && hits === null ? (
            <li className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">{t('itemEditor.picker.searching')}</li>
          ) : shown.length === 0 ? (
            <li className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">{t('itemEditor.picker.noHits')}</li>
          ) : (
            shown.map((hit) => (
              <li key={hit.id}>
                <button
                  type="button"
                  className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-zinc-800 hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none dark:text-zinc-200 dark:hover:bg-zinc-800 dark:focus:bg-zinc-800"
                  onClick={() => {
                    onPick(hit);
                    setKeyword('');
                    setHits(null);
                  }}
                >
                  {hit.image && <img src={hit.image} alt="" className="size-8 shrink-0 rounded object-cover" />}
                  <span className="min-w-0">
                    <span className="block truncate">{hit.nameZh || hit.name}</span>
                    {hit.nameZh && hit.name !== hit.nameZh && (
                      <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{hit.name}</span>
                    )}
                  </span>
                  <span className="ml-auto shrink-0 text-xs text-zinc-400">#{hit.id}</span>
                </button>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
