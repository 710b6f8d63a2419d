import type { JSONContent } from '@tiptap/core';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { articleExtensions } from '../../../shared/community/article-schema.ts';
import type { IconName } from '../../../shared/icons.ts';
import { emojiStore } from '../../../stores/emoji.ts';
import type { UploadTarget } from '../../../stores/upload.ts';
import EmojiPicker from '../media/EmojiPicker.tsx';
import { ImageInsertDialog } from '../media/ImageInsertDialog.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Modal } from '../ui/Modal.tsx';
import { useT } from '../ui/use-t.ts';

export interface ArticleBodyEditorProps {
  /** The stored document to start from (null: empty). */
  initial: JSONContent | null;
  /** Every change: the document and its plain text (for counts and summaries). */
  onChange: (doc: JSONContent, text: string) => void;
  uploadTarget: UploadTarget;
  label: string;
}

const EMOJI_MARKER = /^\[emoji:([^/\]]+)\/([^\]]+)\]$/;
const LINK = /^(https?:\/\/|mailto:)\S+$/i;

/** Which toolbar states to re-render on: reading them from the editor on every transaction is cheap. */
function useToolbarState(editor: Editor | null) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            h2: e.isActive('heading', { level: 2 }),
            h3: e.isActive('heading', { level: 3 }),
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            strike: e.isActive('strike'),
            code: e.isActive('code'),
            bulletList: e.isActive('bulletList'),
            orderedList: e.isActive('orderedList'),
            blockquote: e.isActive('blockquote'),
            codeBlock: e.isActive('codeBlock'),
            spoiler: e.isActive('spoiler'),
            link: e.isActive('link'),
            canUndo: e.can().undo(),
            canRedo: e.can().redo(),
          }
        : null,
  });
}

function ToolButton({
  icon,
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  icon: IconName;
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the editor's selection: the command applies to what was selected.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="inline-flex size-8 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-accent disabled:opacity-40 aria-pressed:bg-primary/15 aria-pressed:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      <Icon name={icon} className="size-4" />
      {children}
    </button>
  );
}

/**
 * The article body editor (Tiptap): headings, marks, lists, quotes, code, links, images through the
 * uploader, spoiler blocks and emoji, in the schema the server stores and renders.
 */
export default function ArticleBodyEditor({ initial, onChange, uploadTarget, label }: ArticleBodyEditorProps) {
  const t = useT();
  const [linkOpen, setLinkOpen] = useState(false);
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [imagesOpen, setImagesOpen] = useState(false);
  const linkId = useId();
  // The editor is made once: it reports changes through whatever `onChange` the latest render passed.
  const changed = useRef(onChange);
  changed.current = onChange;

  const editor = useEditor({
    extensions: articleExtensions(),
    content: initial ?? { type: 'doc', content: [{ type: 'paragraph' }] },
    // The page is rendered on the server; the editor mounts in the browser only.
    immediatelyRender: false,
    editorProps: {
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'hk-article-body min-h-80 px-4 py-3 focus:outline-none',
      },
    },
    onUpdate: ({ editor: e }) => changed.current(e.getJSON(), e.getText()),
  });
  const state = useToolbarState(editor);

  const chain = () => editor?.chain().focus();
  const openLink = () => {
    setLink(typeof editor?.getAttributes('link').href === 'string' ? String(editor.getAttributes('link').href) : '');
    setLinkError(null);
    setLinkOpen(true);
  };
  const applyLink = () => {
    const href = link.trim();
    if (href === '') chain()?.extendMarkRange('link').unsetLink().run();
    else if (!LINK.test(href)) return setLinkError(t('editor.link.invalid'));
    else if (editor?.state.selection.empty && !editor.isActive('link'))
      chain()
        ?.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
        .run();
    else chain()?.extendMarkRange('link').setLink({ href }).run();
    setLinkOpen(false);
  };
  const insertEmoji = (marker: string) => {
    const match = EMOJI_MARKER.exec(marker);
    if (!match) return;
    const code = `${match[1]}/${match[2]}`;
    const src = emojiStore.$sources.get()[code] ?? emojiStore.sourceOf(code);
    if (!src) return;
    chain()?.insertContent({ type: 'emoji', attrs: { code, src } }).run();
  };

  return (
    <div
      className="rounded-lg border border-zinc-300 bg-white focus-within:border-accent dark:border-zinc-600 dark:bg-zinc-900"
      style={{ '--hk-spoiler-label': JSON.stringify(t('editor.spoiler')) } as CSSProperties}
    >
      <div
        role="toolbar"
        aria-label={t('editor.toolbar')}
        className="sticky top-0 z-10 flex flex-wrap items-center gap-0.5 rounded-t-lg border-b border-zinc-200 bg-white/95 px-1.5 py-1 dark:border-zinc-700 dark:bg-zinc-900/95"
      >
        <ToolButton
          icon="heading-2"
          label={t('editor.heading2')}
          pressed={state?.h2}
          onClick={() => chain()?.toggleHeading({ level: 2 }).run()}
        />
        <ToolButton
          icon="heading-3"
          label={t('editor.heading3')}
          pressed={state?.h3}
          onClick={() => chain()?.toggleHeading({ level: 3 }).run()}
        />
        <ToolButton
          icon="bold"
          label={t('editor.bold')}
          pressed={state?.bold}
          onClick={() => chain()?.toggleBold().run()}
        />
        <ToolButton
          icon="italic"
          label={t('editor.italic')}
          pressed={state?.italic}
          onClick={() => chain()?.toggleItalic().run()}
        />
        <ToolButton
          icon="strikethrough"
          label={t('editor.strike')}
          pressed={state?.strike}
          onClick={() => chain()?.toggleStrike().run()}
        />
        <ToolButton
          icon="code"
          label={t('editor.code')}
          pressed={state?.code}
          onClick={() => chain()?.toggleCode().run()}
        />
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-zinc-200 dark:bg-zinc-700" />
        <ToolButton
          icon="list"
          label={t('editor.bulletList')}
          pressed={state?.bulletList}
          onClick={() => chain()?.toggleBulletList().run()}
        />
        <ToolButton
          icon="list-ordered"
          label={t('editor.orderedList')}
          pressed={state?.orderedList}
          onClick={() => chain()?.toggleOrderedList().run()}
        />
        <ToolButton
          icon="quote"
          label={t('editor.quote')}
          pressed={state?.blockquote}
          onClick={() => chain()?.toggleBlockquote().run()}
        />
        <ToolButton
          icon="square-code"
          label={t('editor.codeBlock')}
          pressed={state?.codeBlock}
          onClick={() => chain()?.toggleCodeBlock().run()}
        />
        <ToolButton
          icon="eye-off"
          label={t('editor.spoiler')}
          pressed={state?.spoiler}
          onClick={() => (state?.spoiler ? chain()?.lift('spoiler').run() : chain()?.wrapIn('spoiler').run())}
        />
        <ToolButton icon="minus" label={t('editor.rule')} onClick={() => chain()?.setHorizontalRule().run()} />
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-zinc-200 dark:bg-zinc-700" />
        <ToolButton icon="link" label={t('editor.link')} pressed={state?.link} onClick={openLink} />
        <ToolButton icon="images" label={t('editor.image')} onClick={() => setImagesOpen(true)} />
        <EmojiPicker onSelect={insertEmoji} />
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-zinc-200 dark:bg-zinc-700" />
        <ToolButton
          icon="undo"
          label={t('editor.undo')}
          disabled={!state?.canUndo}
          onClick={() => chain()?.undo().run()}
        />
        <ToolButton
          icon="redo"
          label={t('editor.redo')}
          disabled={!state?.canRedo}
          onClick={() => chain()?.redo().run()}
        />
      </div>
      <EditorContent editor={editor} />
      <Modal
        open={linkOpen}
        onClose={() => setLinkOpen(false)}
        title={t('editor.link')}
        size="small"
        footer={
          <>
            <button type="button" onClick={() => setLinkOpen(false)} className="hk-btn hk-btn-ghost">
              {t('editor.cancel')}
            </button>
            <button type="button" onClick={applyLink} className="hk-btn hk-btn-primary">
              {t('editor.confirm')}
            </button>
          </>
        }
      >
        <label htmlFor={linkId} className="mb-1 block text-sm font-medium">
          {t('editor.linkAddress')}
        </label>
        <input
          id={linkId}
          type="url"
          value={link}
          onChange={(event) => setLink(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              applyLink();
            }
          }}
          aria-invalid={linkError !== null}
          aria-describedby={linkError ? `${linkId}-error` : undefined}
          className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-600 dark:bg-zinc-900"
        />
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{t('editor.linkHint')}</p>
        {linkError && (
          <p id={`${linkId}-error`} role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
            {linkError}
          </p>
        )}
      </Modal>
      <ImageInsertDialog
        open={imagesOpen}
        onClose={() => setImagesOpen(false)}
        onInsert={(urls) =>
          chain()
            ?.insertContent(urls.map((src) => ({ type: 'image', attrs: { src } })))
            .run()
        }
        uploadTarget={uploadTarget}
      />
    </div>
  );
}
