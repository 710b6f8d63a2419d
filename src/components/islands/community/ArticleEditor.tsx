import type { JSONContent } from '@tiptap/core';
import { useId, useRef, useState } from 'react';
import { ARTICLE_SLUG_MAX, ARTICLE_SUMMARY_MAX, ARTICLE_TITLE_MAX } from '../../../shared/community/community-model.ts';
import type { ArticleDetail, ArticleInput, WorkBrief } from '../../../shared/community/community.ts';
import { openArticle, saveArticle } from '../../../stores/content-editor.ts';
import { useContentAutosave } from './use-content-autosave.ts';
import { OpenState } from './OpenState.tsx';
import { useOpened } from './use-opened.ts';
import ImageUploader from '../media/ImageUploader.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import ArticleBodyEditor from './ArticleBodyEditor.tsx';
import { fieldClass, labelClass, SectionSelect, TopicsInput, WorksPicker } from './ContentMetaFields.tsx';
import { SaveBar } from './SaveBar.tsx';

export interface ArticleEditorProps {
  /** The article to edit (a draft or a published article of the viewer), or null for a new one. */
  id: number | null;
}

interface ArticleForm {
  title: string;
  slug: string;
  cover: string;
  summary: string;
  body: JSONContent;
  bodyText: string;
  sectionId: number | null;
  topics: string[];
  works: WorkBrief[];
  isReview: boolean;
  /** `type:id` of the reviewed work, one of `works`. */
  reviewWork: string;
}

const workKey = (work: { type: string; id: number }) => `${work.type}:${work.id}`;
const EMPTY_DOC: JSONContent = { type: 'doc', content: [{ type: 'paragraph' }] };

function toInput(form: ArticleForm): ArticleInput {
  const reviewed = form.isReview ? form.works.find((work) => workKey(work) === form.reviewWork) : undefined;
  return {
    title: form.title,
    slug: form.slug.trim() === '' ? null : form.slug.trim(),
    cover: form.cover,
    summary: form.summary,
    body: form.body,
    sectionId: form.sectionId,
    topics: form.topics,
    works: form.works.map(({ type, id }) => ({ type, id })),
    isReview: form.isReview,
    reviewWork: reviewed ? { type: reviewed.type, id: reviewed.id } : null,
  };
}

const hintClass = 'mt-1 text-xs text-zinc-600 dark:text-zinc-400';

/** A new article with nothing in it is not worth a draft. */
const isEmptyArticle = (input: ArticleInput) =>
  input.title.trim() === '' && input.summary.trim() === '' && JSON.stringify(input.body) === JSON.stringify(EMPTY_DOC);

/**
 * Writing an article: title, address (slug), cover, summary, the rich body, section, topics, related
 * works, and whether it reviews one of them (linked to the author's rating of it).
 */
function ArticleForm({ initial }: { initial: ArticleDetail | null }) {
  const t = useT();
  const ids = { title: useId(), slug: useId(), summary: useId(), review: useId(), reviewWork: useId() };
  const [form, setForm] = useState<ArticleForm>(() => ({
    title: initial?.title ?? '',
    slug: initial?.slug ?? '',
    cover: initial?.cover ?? '',
    summary: initial?.summary ?? '',
    body: initial?.body ?? EMPTY_DOC,
    bodyText: '',
    sectionId: initial?.section?.id ?? null,
    topics: initial?.topics.map((topic) => topic.name) ?? [],
    works: initial?.works ?? [],
    isReview: initial?.isReview ?? false,
    reviewWork: initial?.reviewWork ? workKey(initial.reviewWork) : '',
  }));
  const [coverBusy, setCoverBusy] = useState(false);
  const autosave = useContentAutosave<ArticleInput>(saveArticle, isEmptyArticle, initial);

  // The latest form, for changes reported by the body editor between renders.
  const latest = useRef(form);
  const update = (patch: Partial<ArticleForm>) => {
    const next = { ...latest.current, ...patch };
    // A reviewed work must stay among the related works.
    if (next.reviewWork && !next.works.some((work) => workKey(work) === next.reviewWork)) next.reviewWork = '';
    if (next.isReview && next.reviewWork === '' && next.works.length > 0) next.reviewWork = workKey(next.works[0]!);
    latest.current = next;
    setForm(next);
    autosave.change(toInput(next));
  };
  const publish = async () => {
    if (coverBusy) return;
    const saved = await autosave.publish(toInput(latest.current));
    if (saved) window.location.assign(saved.url);
  };

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void publish();
      }}
    >
      <div>
        <label htmlFor={ids.title} className={labelClass}>
          {t('editor.title')}
        </label>
        <input
          id={ids.title}
          value={form.title}
          maxLength={ARTICLE_TITLE_MAX}
          onChange={(event) => update({ title: event.target.value })}
          placeholder={t('editor.articleTitleHint')}
          className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-xl font-medium focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
        />
      </div>
      <div className="grid gap-5 md:grid-cols-2">
        <SectionSelect value={form.sectionId} onChange={(sectionId) => update({ sectionId })} />
        <div>
          <label htmlFor={ids.slug} className={labelClass}>
            {t('editor.slug')}
          </label>
          <input
            id={ids.slug}
            value={form.slug}
            maxLength={ARTICLE_SLUG_MAX}
            onChange={(event) => update({ slug: event.target.value.toLowerCase() })}
            aria-describedby={`${ids.slug}-hint`}
            className={fieldClass}
          />
          <p id={`${ids.slug}-hint`} className={hintClass}>
            {t('editor.slugHint')}
          </p>
        </div>
      </div>
      <div>
        <p className={labelClass}>{t('editor.cover')}</p>
        <ImageUploader
          target={{ type: 'article', id: initial?.id ?? 'new' }}
          mode="single"
          size={200}
          initial={initial?.cover ? [initial.cover] : []}
          onChange={(urls) => update({ cover: urls[0] ?? '' })}
          onBusyChange={setCoverBusy}
          label={t('editor.cover')}
        />
      </div>
      <div>
        <label htmlFor={ids.summary} className={labelClass}>
          {t('editor.summary')}
        </label>
        <textarea
          id={ids.summary}
          value={form.summary}
          maxLength={ARTICLE_SUMMARY_MAX}
          rows={2}
          onChange={(event) => update({ summary: event.target.value })}
          aria-describedby={`${ids.summary}-hint`}
          className={`${fieldClass} resize-y`}
        />
        <p id={`${ids.summary}-hint`} className={hintClass}>
          {t('editor.summaryHint', { max: ARTICLE_SUMMARY_MAX })} · {form.summary.length} / {ARTICLE_SUMMARY_MAX}
        </p>
      </div>
      <div>
        <p className={labelClass}>{t('editor.body')}</p>
        <ArticleBodyEditor
          initial={initial?.body ?? null}
          onChange={(body, bodyText) => update({ body, bodyText })}
          uploadTarget={{ type: 'article', id: initial?.id ?? 'new' }}
          label={t('editor.body')}
        />
      </div>
      <TopicsInput value={form.topics} onChange={(topics) => update({ topics })} />
      <WorksPicker value={form.works} onChange={(works) => update({ works })} />
      <fieldset className="rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
        <legend className="px-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('editor.review')}</legend>
        <label htmlFor={ids.review} className="flex items-center gap-2 text-sm">
          <input
            id={ids.review}
            type="checkbox"
            checked={form.isReview}
            disabled={form.works.length === 0}
            onChange={(event) => update({ isReview: event.target.checked })}
            className="size-4 accent-[#39c5bb]"
          />
          {t('editor.reviewToggle')}
        </label>
        <p className={hintClass}>{form.works.length === 0 ? t('editor.reviewNeedsWork') : t('editor.reviewHint')}</p>
        {form.isReview && form.works.length > 0 && (
          <div className="mt-2">
            <label htmlFor={ids.reviewWork} className={labelClass}>
              {t('editor.reviewWork')}
            </label>
            <select
              id={ids.reviewWork}
              value={form.reviewWork}
              onChange={(event) => update({ reviewWork: event.target.value })}
              className={fieldClass}
            >
              {form.works.map((work) => (
                <option key={workKey(work)} value={workKey(work)}>
                  {work.title}
                </option>
              ))}
            </select>
          </div>
        )}
      </fieldset>
      <SaveBar autosave={autosave} onPublish={() => void publish()} />
    </form>
  );
}

/** Opens the article named by the page (or none) and shows its form. */
function ArticleEditor({ id }: ArticleEditorProps) {
  const opened = useOpened(id, openArticle);
  if (opened.state === 'ready') return <ArticleForm initial={opened.item} />;
  return <OpenState opened={opened} />;
}

export default withLocale(ArticleEditor);
