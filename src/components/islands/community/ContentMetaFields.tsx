import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  CONTENT_TOPICS_MAX,
  CONTENT_WORKS_MAX,
  TOPIC_NAME_MAX,
  topicKey,
} from '../../../shared/community/community-model.ts';
import type { SectionView, WorkBrief } from '../../../shared/community/community.ts';
import { loadSections, lookupWorks, suggestTopics } from '../../../stores/content-editor.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';

/** The look of the editors' text fields and their labels. */
export const fieldClass =
  'w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900';
export const labelClass = 'mb-1 block text-sm font-medium text-zinc-800 dark:text-zinc-200';

/** Waits `ms` after the last change of `value` before giving it back (typing, then asking the server). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const handle = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(handle);
  }, [value, ms]);
  return settled;
}

export function SectionSelect({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const t = useT();
  const id = useId();
  const [sections, setSections] = useState<SectionView[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadSections().then(setSections, () => setFailed(true));
  }, []);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t('editor.section')}
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
        className={fieldClass}
        aria-describedby={failed ? `${id}-error` : undefined}
      >
        <option value="">{sections ? t('editor.sectionChoose') : t('editor.loading')}</option>
        {sections?.map((section) => (
          <option key={section.id} value={section.id} data-i18n-content>
            {section.name}
          </option>
        ))}
      </select>
      {failed && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {t('editor.sectionsFailed')}
        </p>
      )}
    </div>
  );
}

/** Topic names as chips; typing suggests existing topics, Enter or a comma adds what was typed. */
export function TopicsInput({ value, onChange }: { value: string[]; onChange: (names: string[]) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const keyword = useDebounced(text.trim(), 200);
  const full = value.length >= CONTENT_TOPICS_MAX;

  useEffect(() => {
    if (keyword === '' || keyword.includes('#')) {
      setSuggestions([]);
      return;
    }
    let current = true;
    suggestTopics(keyword).then(
      (topics) => current && setSuggestions(topics.map((topic) => topic.name)),
      () => current && setSuggestions([]),
    );
    return () => {
      current = false;
    };
  }, [keyword]);

  const add = (raw: string) => {
    const name = raw.replace(/#/g, '').normalize('NFKC').trim().slice(0, TOPIC_NAME_MAX);
    if (name === '' || full || value.some((existing) => topicKey(existing) === topicKey(name))) return setText('');
    onChange([...value, name]);
    setText('');
    setSuggestions([]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === '，') {
      event.preventDefault();
      add(text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };
  const listId = `${id}-list`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t('editor.topics')}
      </label>
      <div className="flex flex-wrap items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-2 py-1.5 focus-within:border-accent dark:border-zinc-600 dark:bg-zinc-900">
        {value.map((name) => (
          <span
            key={name}
            data-i18n-content
            className="inline-flex items-center gap-1 rounded-full bg-primary/15 px-2 py-0.5 text-sm text-accent"
          >
            #{name}
            <button
              type="button"
              onClick={() => onChange(value.filter((existing) => existing !== name))}
              aria-label={t('editor.topicRemove', { name })}
              className="rounded-full hover:bg-primary/20"
            >
              <Icon name="x" className="size-3.5" />
            </button>
          </span>
        ))}
        <input
          id={id}
          value={text}
          disabled={full}
          maxLength={TOPIC_NAME_MAX + 1}
          list={listId}
          placeholder={full ? t('editor.topicsFull', { max: CONTENT_TOPICS_MAX }) : t('editor.topicsHint')}
          onChange={(event) => {
            const next = event.target.value;
            // Picking a suggestion from the list fills the whole name in: take it at once.
            if (suggestions.includes(next)) add(next);
            else setText(next);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => text.trim() && add(text)}
          className="min-w-40 flex-1 bg-transparent py-0.5 text-sm focus:outline-none"
        />
        <datalist id={listId}>
          {suggestions.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
    </div>
  );
}

/** Related works: search games by title and add them (at most CONTENT_WORKS_MAX). */
export function WorksPicker({ value, onChange }: { value: WorkBrief[]; onChange: (works: WorkBrief[]) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<WorkBrief[]>([]);
  const [searching, setSearching] = useState(false);
  const keyword = useDebounced(text.trim(), 250);
  const full = value.length >= CONTENT_WORKS_MAX;
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (keyword === '') {
      setFound([]);
      return;
    }
    let current = true;
    setSearching(true);
    lookupWorks(keyword)
      .then(
        (works) => current && setFound(works),
        () => current && setFound([]),
      )
      .finally(() => current && setSearching(false));
    return () => {
      current = false;
    };
  }, [keyword]);

  const chosen = (work: WorkBrief) => value.some((w) => w.type === work.type && w.id === work.id);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t('editor.works')}
      </label>
      {value.length > 0 && (
        <ul className="mb-2 flex flex-wrap gap-2">
          {value.map((work) => (
            <li
              key={`${work.type}:${work.id}`}
              className="inline-flex items-center gap-2 rounded-md border border-zinc-200 bg-zinc-50 py-1 pr-1 pl-2 text-sm dark:border-zinc-700 dark:bg-zinc-800"
            >
              <Icon name="gamepad" className="size-4 text-accent" />
              <span className="max-w-56 truncate" data-i18n-content>
                {work.title}
              </span>
              <button
                type="button"
                onClick={() => onChange(value.filter((w) => !(w.type === work.type && w.id === work.id)))}
                aria-label={t('editor.workRemove', { title: work.title })}
                className="rounded p-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-700"
              >
                <Icon name="x" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        id={id}
        type="search"
        value={text}
        disabled={full}
        maxLength={100}
        placeholder={full ? t('editor.worksFull', { max: CONTENT_WORKS_MAX }) : t('editor.worksHint')}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={`${id}-status`}
        className={fieldClass}
      />
      <p id={`${id}-status`} className="sr-only" aria-live="polite">
        {keyword && !searching ? t('editor.worksFound', { count: found.length }) : ''}
      </p>
      {keyword !== '' && (
        <ul className="mt-1 max-h-56 overflow-y-auto rounded-md border border-zinc-200 dark:border-zinc-700">
          {found.length === 0 && !searching && (
            <li className="px-3 py-2 text-sm text-zinc-600 dark:text-zinc-400">{t('editor.worksNone')}</li>
          )}
          {found.map((work) => (
            <li key={`${work.type}:${work.id}`}>
              <button
                type="button"
                disabled={chosen(work) || full}
                onClick={() => {
                  onChange([...value, work]);
                  setText('');
                  input.current?.focus();
                }}
                className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-zinc-100 disabled:opacity-50 dark:hover:bg-zinc-800"
              >
                <Icon name="plus" className="size-4 text-accent" />
                <span className="truncate">{work.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
