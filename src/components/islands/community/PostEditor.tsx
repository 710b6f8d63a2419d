import { useId, useState } from 'react';
import { POST_CONTENT_MAX, POST_IMAGES_MAX, POST_TITLE_MAX } from '../../../shared/community/community-model.ts';
import type { PostDetail, PostInput, WorkBrief } from '../../../shared/community/community.ts';
import { openPost, savePost } from '../../../stores/content-editor.ts';
import { useContentAutosave } from './use-content-autosave.ts';
import { OpenState } from './OpenState.tsx';
import { useOpened } from './use-opened.ts';
import ImageUploader from '../media/ImageUploader.tsx';
import RichCommentInput from '../media/RichCommentInput.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import { SectionSelect, TopicsInput, WorksPicker } from './ContentMetaFields.tsx';
import { SaveBar } from './SaveBar.tsx';

export interface PostEditorProps {
  /** The post to edit (a draft or a published post of the viewer), or null for a new one. */
  id: number | null;
}

interface PostForm {
  title: string;
  content: string;
  images: string[];
  sectionId: number | null;
  topics: string[];
  works: WorkBrief[];
}

const toInput = (form: PostForm): PostInput => ({
  title: form.title,
  content: form.content,
  images: form.images,
  sectionId: form.sectionId,
  topics: form.topics,
  works: form.works.map(({ type, id }) => ({ type, id })),
});

/** A new post with nothing in it is not worth a draft. */
const isEmptyPost = (input: PostInput) =>
  input.title.trim() === '' && input.content.trim() === '' && input.images.length === 0;

/** Writing a post: title, text with emoji and images, up to 9 pictures, section, topics, related works. */
function PostForm({ initial }: { initial: PostDetail | null }) {
  const t = useT();
  const titleId = useId();
  const [form, setForm] = useState<PostForm>(() => ({
    title: initial?.title ?? '',
    content: initial?.content ?? '',
    images: initial?.images ?? [],
    sectionId: initial?.section?.id ?? null,
    topics: initial?.topics.map((topic) => topic.name) ?? [],
    works: initial?.works ?? [],
  }));
  const [imagesBusy, setImagesBusy] = useState(false);
  const autosave = useContentAutosave<PostInput>(savePost, isEmptyPost, initial);

  const update = (patch: Partial<PostForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    autosave.change(toInput(next));
  };
  const publish = async () => {
    if (imagesBusy) return;
    const saved = await autosave.publish(toInput(form));
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
        <label htmlFor={titleId} className="mb-1 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('editor.title')}
        </label>
        <input
          id={titleId}
          value={form.title}
          maxLength={POST_TITLE_MAX}
          onChange={(event) => update({ title: event.target.value })}
          placeholder={t('editor.postTitleHint')}
          className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-lg focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
        />
        <p className="mt-1 text-right text-xs text-zinc-600 dark:text-zinc-400">
          {form.title.length} / {POST_TITLE_MAX}
        </p>
      </div>
      <SectionSelect value={form.sectionId} onChange={(sectionId) => update({ sectionId })} />
      <div>
        <p className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('editor.content')}</p>
        <RichCommentInput
          value={form.content}
          onChange={(content) => update({ content })}
          uploadTarget={{ type: 'post', id: initial?.id ?? 'new' }}
          label={t('editor.content')}
          maxLength={POST_CONTENT_MAX}
          rows={10}
        />
      </div>
      <div>
        <p className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('editor.images', { max: POST_IMAGES_MAX })}
        </p>
        <ImageUploader
          target={{ type: 'post', id: initial?.id ?? 'new' }}
          mode="multiple"
          max={POST_IMAGES_MAX}
          size={140}
          initial={initial?.images ?? []}
          onChange={(images) => update({ images })}
          onBusyChange={setImagesBusy}
          label={t('editor.imagesLabel')}
        />
      </div>
      <TopicsInput value={form.topics} onChange={(topics) => update({ topics })} />
      <WorksPicker value={form.works} onChange={(works) => update({ works })} />
      <SaveBar autosave={autosave} onPublish={() => void publish()} />
    </form>
  );
}

/** Opens the post named by the page (or none) and shows its form. */
function PostEditor({ id }: PostEditorProps) {
  const opened = useOpened(id, openPost);
  if (opened.state === 'ready') return <PostForm initial={opened.item} />;
  return <OpenState opened={opened} />;
}

export default withLocale(PostEditor);
