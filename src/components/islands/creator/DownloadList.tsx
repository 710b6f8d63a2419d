import { useEffect, useId, useState } from 'react';
import { DOWNLOAD_LANGUAGES, PLATFORMS, TRANSLATION_TYPES } from '../../../shared/catalogue-model.ts';
import { DOC_LIMITS } from '../../../shared/creator/docs-model.ts';
import type { DownloadDoc } from '../../../shared/creator/docs.ts';
import { translateRef, type MessageKey } from '../../../shared/i18n/index.ts';
import type { FieldErrors } from '../../../stores/item-editor.ts';
import { useT } from '../ui/use-t.ts';
import { fieldLabelKey, smallInputClass } from './item-editor-fields.tsx';

type Link = DownloadDoc['links'][number];

const NEW_LINK: Link = { id: null, label: '', url: '', password: '' };
const NEW_DOWNLOAD: DownloadDoc = {
  id: null,
  language: 'zh-Hans',
  platform: 'windows',
  translationType: 'fan',
  translationGroup: '',
  sizeBytes: null,
  note: '',
  links: [NEW_LINK],
};

const UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
type Unit = keyof typeof UNITS;

const unitFor = (bytes: number | null): Unit => (bytes !== null && bytes >= UNITS.GB ? 'GB' : 'MB');
const shown = (bytes: number | null, unit: Unit) =>
  bytes === null ? '' : String(Math.round((bytes / UNITS[unit]) * 100) / 100);

const labelClass = 'flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300';
const removeClass =
  'rounded-md px-2 py-1 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-zinc-800';

/** A size typed in MB or GB (kept in bytes); what is being typed stays as typed until it is a number. */
function SizeInput({
  bytes,
  label,
  invalid,
  onChange,
}: {
  bytes: number | null;
  label: string;
  invalid: boolean;
  onChange: (bytes: number | null) => void;
}) {
  const t = useT();
  const [unit, setUnit] = useState<Unit>(() => unitFor(bytes));
  const [draft, setDraft] = useState(() => shown(bytes, unit));
  const id = useId();
  useEffect(() => {
    // Another change of the document (a reload, a conflict's reload) brings a size of its own.
    const typed = draft.trim() === '' ? null : Math.round(Number(draft) * UNITS[unit]);
    // -1 is what this box sends for a value that is not a size: the text stays as typed.
    if (bytes === -1 || typed === bytes) return;
    const next = unitFor(bytes);
    setUnit(next);
    setDraft(shown(bytes, next));
  }, [bytes]);
  const commit = (text: string, nextUnit: Unit) => {
    const value = text.trim();
    if (value === '') return onChange(null);
    const number = Number(value);
    // Not a size (a letter, a negative number) reaches the schema as -1, which marks the box.
    onChange(Number.isFinite(number) && number >= 0 ? Math.round(number * UNITS[nextUnit]) : -1);
  };
  return (
    <div className={labelClass}>
      <label htmlFor={id}>{label}</label>
      <div className="flex gap-1">
        <input
          id={id}
          className={`${smallInputClass} w-24`}
          inputMode="decimal"
          value={draft}
          aria-invalid={invalid}
          onChange={(event) => {
            setDraft(event.target.value);
            commit(event.target.value, unit);
          }}
        />
        <select
          className={`${smallInputClass} w-auto`}
          aria-label={t('itemEditor.download.unit')}
          value={unit}
          onChange={(event) => {
            const next = event.target.value as Unit;
            setUnit(next);
            commit(draft, next);
          }}
        >
          {Object.keys(UNITS).map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * A game's downloads in the editor: each file (language, platform, translation, group, size, note)
 * with its links (name, address, password). Rows keep their ids, so a link that stays keeps its
 * reports; a new row has none until it is saved.
 */
export function DownloadList({
  rows,
  errors,
  onChange,
}: {
  rows: DownloadDoc[];
  errors: FieldErrors;
  onChange: (rows: DownloadDoc[]) => void;
}) {
  const t = useT();
  const error = errors.downloads;
  const errorId = `${useId()}-error`;
  const at = (path: string) => Boolean(errors[`downloads.${path}`]);
  const setRow = (index: number, patch: Partial<DownloadDoc>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const setLink = (index: number, linkIndex: number, patch: Partial<Link>) =>
    setRow(index, {
      links: rows[index]!.links.map((link, j) => (j === linkIndex ? { ...link, ...patch } : link)),
    });
  const choice = <T extends string>(
    index: number,
    key: 'language' | 'platform' | 'translationType',
    values: readonly T[],
    label: (value: T) => MessageKey,
  ) => (
    <label className={labelClass}>
      {t(fieldLabelKey(key === 'language' ? 'downloadLanguage' : key === 'platform' ? 'downloadPlatform' : key))}
      <select
        className={`${smallInputClass} w-auto pr-8`}
        value={rows[index]![key]}
        aria-invalid={at(`${index}.${key}`)}
        onChange={(event) => setRow(index, { [key]: event.target.value })}
      >
        {values.map((value) => (
          <option key={value} value={value}>
            {t(label(value))}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="flex flex-col gap-4" data-field="downloads" aria-describedby={error ? errorId : undefined}>
      {rows.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('itemEditor.download.none')}</p>}
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <fieldset
            key={row.id ?? `new-${index}`}
            className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700"
            data-download={index}
          >
            <legend className="px-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('itemEditor.download.item', { n })}
            </legend>
            <div className="flex flex-wrap items-end gap-3">
              {choice(index, 'language', DOWNLOAD_LANGUAGES, (v) => `galgame.language.${v}` as MessageKey)}
              {choice(index, 'platform', PLATFORMS, (v) => `galgame.platform.${v}` as MessageKey)}
              {choice(index, 'translationType', TRANSLATION_TYPES, (v) => `galgame.translation.${v}` as MessageKey)}
              <label className={labelClass}>
                {t(fieldLabelKey('translationGroup'))}
                <input
                  className={`${smallInputClass} w-40`}
                  maxLength={DOC_LIMITS.short}
                  value={row.translationGroup}
                  aria-invalid={at(`${index}.translationGroup`)}
                  onChange={(event) => setRow(index, { translationGroup: event.target.value })}
                />
              </label>
              <SizeInput
                bytes={row.sizeBytes}
                label={t(fieldLabelKey('sizeBytes'))}
                invalid={at(`${index}.sizeBytes`)}
                onChange={(sizeBytes) => setRow(index, { sizeBytes })}
              />
            </div>
            <label className={labelClass}>
              {t(fieldLabelKey('downloadNote'))}
              <input
                className={`${smallInputClass} w-full`}
                maxLength={DOC_LIMITS.note}
                value={row.note}
                aria-invalid={at(`${index}.note`)}
                onChange={(event) => setRow(index, { note: event.target.value })}
              />
            </label>
            <div className="flex flex-col gap-2">
              <p className="text-xs font-medium text-zinc-600 dark:text-zinc-300">{t(fieldLabelKey('links'))}</p>
              {row.links.length === 0 && (
                <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('itemEditor.download.noLinks')}</p>
              )}
              {row.links.map((link, j) => {
                const m = j + 1;
                return (
                  <div
                    key={link.id ?? `new-${j}`}
                    className="flex flex-wrap items-center gap-2 rounded-md bg-zinc-50 p-2 sm:bg-transparent sm:p-0 dark:bg-zinc-800/50 sm:dark:bg-transparent"
                    data-link={j}
                  >
                    <input
                      className={`${smallInputClass} w-32`}
                      placeholder={t('itemEditor.download.labelHint')}
                      aria-label={t('itemEditor.download.linkField', { field: t(fieldLabelKey('linkLabel')), n, m })}
                      maxLength={DOC_LIMITS.short}
                      value={link.label}
                      aria-invalid={at(`${index}.links.${j}.label`)}
                      onChange={(event) => setLink(index, j, { label: event.target.value })}
                    />
                    <input
                      className={`${smallInputClass} min-w-48 flex-1`}
                      type="url"
                      placeholder="https://"
                      aria-label={t('itemEditor.download.linkField', { field: t(fieldLabelKey('linkUrl')), n, m })}
                      value={link.url}
                      aria-invalid={at(`${index}.links.${j}.url`)}
                      onChange={(event) => setLink(index, j, { url: event.target.value })}
                    />
                    <input
                      className={`${smallInputClass} w-28`}
                      placeholder={t(fieldLabelKey('linkPassword'))}
                      aria-label={t('itemEditor.download.linkField', {
                        field: t(fieldLabelKey('linkPassword')),
                        n,
                        m,
                      })}
                      maxLength={DOC_LIMITS.short}
                      value={link.password}
                      aria-invalid={at(`${index}.links.${j}.password`)}
                      onChange={(event) => setLink(index, j, { password: event.target.value })}
                    />
                    <button
                      type="button"
                      className={removeClass}
                      aria-label={t('itemEditor.download.removeLink', { n, m })}
                      onClick={() => setRow(index, { links: row.links.filter((_, k) => k !== j) })}
                    >
                      ×
                    </button>
                  </div>
                );
              })}
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="hk-btn hk-btn-ghost"
                  disabled={row.links.length >= DOC_LIMITS.links}
                  onClick={() => setRow(index, { links: [...row.links, NEW_LINK] })}
                >
                  {t('itemEditor.download.addLink')}
                </button>
                <button
                  type="button"
                  className="hk-btn hk-btn-ghost text-red-700 dark:text-red-400"
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  {t('itemEditor.download.remove', { n })}
                </button>
              </div>
            </div>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="hk-btn hk-btn-ghost self-start"
        disabled={rows.length >= DOC_LIMITS.downloads}
        onClick={() => onChange([...rows, NEW_DOWNLOAD])}
      >
        {t('itemEditor.download.add')}
      </button>
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400" data-field-error="downloads">
          {translateRef(t, error)}
        </p>
      )}
    </div>
  );
}
