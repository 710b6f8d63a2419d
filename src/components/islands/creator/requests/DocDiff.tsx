import { isLongText, lineDiff, valueLines, type Say } from '../../../../shared/creator/doc-diff.ts';
import type { LinkNames } from '../../../../shared/creator/requests.contract.ts';
import type { MessageKey } from '../../../../shared/i18n/index.ts';
import { Icon } from '../../ui/Icon.tsx';
import { useT } from '../../ui/use-t.ts';

/** One changed field: before and after, and (for a request whose item moved on) the value now. */
export interface DiffRow {
  field: string;
  before: unknown;
  after: unknown;
  current?: unknown;
  conflict?: boolean;
}

interface Props {
  rows: readonly DiffRow[];
  names: LinkNames | null;
  /** Show the item's current value between before and after (update requests). */
  showCurrent?: boolean;
  /** Column titles: base/proposed for requests, before/after for revisions. */
  labels?: { before: MessageKey; current?: MessageKey; after: MessageKey };
}

function Lines({
  lines,
  tone,
  empty,
  other,
}: {
  lines: string[];
  tone: 'old' | 'new' | 'now';
  empty: string;
  /** The other side's lines: a line it lacks is marked as removed (old) or added (new). */
  other?: readonly string[];
}) {
  const t = useT();
  const kept = other ? new Set(other) : null;
  const colour =
    tone === 'old'
      ? 'bg-rose-50 text-rose-900 dark:bg-rose-950/40 dark:text-rose-100'
      : tone === 'new'
        ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100'
        : 'bg-zinc-50 text-zinc-800 dark:bg-zinc-800/60 dark:text-zinc-200';
  if (lines.length === 0) return <p className="px-2 py-1 text-sm text-zinc-500 italic dark:text-zinc-400">{empty}</p>;
  return (
    <ul className={`rounded-md px-2 py-1 text-sm break-words ${colour}`} data-i18n-content>
      {lines.map((line, i) => {
        const marked = kept !== null && tone !== 'now' && !kept.has(line);
        return (
          <li
            key={i}
            className={`min-h-5 whitespace-pre-wrap ${marked ? (tone === 'old' ? 'bg-rose-200/70 dark:bg-rose-800/50' : 'bg-emerald-200/70 dark:bg-emerald-800/50') : ''}`}
            data-changed-line={marked || undefined}
          >
            {marked && (
              <span className="sr-only">
                {t(tone === 'old' ? 'revision.diff.linesRemoved' : 'revision.diff.linesAdded')}:{' '}
              </span>
            )}
            {line}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The side-by-side diff of a document's changed fields: before | after per field (with the current
 * value for requests), lists as readable entries with the names of what they link to, and long text
 * compared line by line. Used by the update-request pages and the history; the item editor's preview
 * can show its changes with it too.
 */
export default function DocDiff({ rows, names, showCurrent = false, labels }: Props) {
  const t = useT();
  const say: Say = (key, params) => t(key as MessageKey, params);
  const heads = labels ?? {
    before: 'revision.detail.before',
    current: 'revision.detail.current',
    after: 'revision.detail.after',
  };
  const empty = t('revision.detail.empty');
  return (
    <dl className="flex flex-col gap-4" data-testid="doc-diff">
      {rows.map((row) => {
        const long = isLongText(row.before, row.after);
        const label = t(`revision.field.${row.field}` as MessageKey);
        const before = valueLines(row.field, row.before, names, say);
        const after = valueLines(row.field, row.after, names, say);
        // In a list, the entries only one side has are marked, so a long list shows what moved.
        const list = Array.isArray(row.before) || Array.isArray(row.after);
        return (
          <div
            key={row.field}
            className={`rounded-lg border p-3 ${row.conflict ? 'border-amber-400 dark:border-amber-500' : 'border-zinc-200 dark:border-zinc-700'}`}
            data-field={row.field}
            data-conflict={row.conflict || undefined}
          >
            <dt className="mb-2 flex items-center gap-2 text-sm font-medium text-zinc-900 dark:text-white">
              {label}
              {row.conflict && (
                <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
                  <Icon name="triangle-alert" className="size-3.5" />
                  {t('revision.detail.conflictField')}
                </span>
              )}
            </dt>
            <dd>
              {long && !showCurrent ? (
                <ul
                  className="overflow-hidden rounded-md border border-zinc-200 text-sm dark:border-zinc-700"
                  data-i18n-content
                >
                  {lineDiff(before, after).map((op, i) => (
                    <li
                      key={i}
                      className={`flex gap-2 px-2 whitespace-pre-wrap ${
                        op.op === 'removed'
                          ? 'bg-rose-50 text-rose-900 dark:bg-rose-950/40 dark:text-rose-100'
                          : op.op === 'added'
                            ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100'
                            : 'text-zinc-700 dark:text-zinc-300'
                      }`}
                    >
                      <span aria-hidden="true" className="w-3 shrink-0 select-none">
                        {op.op === 'removed' ? '−' : op.op === 'added' ? '+' : ' '}
                      </span>
                      {op.op !== 'same' && (
                        <span className="sr-only">
                          {t(op.op === 'removed' ? 'revision.diff.linesRemoved' : 'revision.diff.linesAdded')}:{' '}
                        </span>
                      )}
                      <span className="min-w-0 break-words">{op.line || ' '}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <div className={`grid grid-cols-1 gap-2 ${showCurrent ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
                  <div>
                    <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">{t(heads.before)}</p>
                    <Lines lines={before} tone="old" empty={empty} other={list ? after : undefined} />
                  </div>
                  {showCurrent && (
                    <div>
                      <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">
                        {t(heads.current ?? 'revision.detail.current')}
                      </p>
                      <Lines lines={valueLines(row.field, row.current, names, say)} tone="now" empty={empty} />
                    </div>
                  )}
                  <div>
                    <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">{t(heads.after)}</p>
                    <Lines lines={after} tone="new" empty={empty} other={list ? before : undefined} />
                  </div>
                </div>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
