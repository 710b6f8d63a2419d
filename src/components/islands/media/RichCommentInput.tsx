import { useStore } from '@nanostores/react';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import type { UploadTarget } from '../../../stores/upload.ts';
import { uploadFailureText } from '../../../stores/upload.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import EmojiPicker from './EmojiPicker.tsx';
import { ImageInsertDialog } from './ImageInsertDialog.tsx';

export { INSERT_DIALOG_COMPRESS, INSERT_DIALOG_SIZE_PX } from './ImageInsertDialog.tsx';

export interface RichCommentInputProps {
  value: string;
  onChange: (value: string) => void;
  /** Where images written here are stored (`comment`, `private_message/{userId}`…). */
  uploadTarget: UploadTarget;
  label?: string;
  maxLength?: number;
  rows?: number;
  /** Grows with its text between `rows` and this many rows (spec §5: chat 4 to 6), then scrolls. */
  maxRows?: number;
  /** Enter (without Shift, outside an input method's composition) calls this instead of a new line. */
  onEnter?: () => void;
  /** Where the emoji picker opens (above the input at the bottom of a chat). */
  emojiPlacement?: 'below' | 'above';
  /** Controls after the counter (a send button). */
  actions?: ReactNode;
  /** Described by (a hint's id). */
  describedBy?: string;
}

/** `text` with `insert` put in place of the selection, and where the caret goes after it. */
export function insertAt(text: string, insert: string, start: number, end: number): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { value: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

/** Markers of images, one per line: `[img]{url}[/img]`. */
export const imageMarkers = (urls: readonly string[]) => urls.map((url) => `[img]${url}[/img]`).join('\n');

/**
 * A text input for comments and messages with the emoji picker and an image insert dialog; emoji and
 * images go into the text as markers (`[emoji:set/name]`, `[img]url[/img]`) at the caret.
 */
export default function RichCommentInput({
  value,
  onChange,
  uploadTarget,
  label,
  maxLength,
  rows = 4,
  maxRows,
  onEnter,
  emojiPlacement,
  actions,
  describedBy,
}: RichCommentInputProps) {
  const t = useT();
  const session = useStore($session);
  const area = useRef<HTMLTextAreaElement>(null);
  const selection = useRef({ start: value.length, end: value.length });
  const [dialogOpen, setDialogOpen] = useState(false);
  const id = useId();

  // Auto-sized between `rows` and `maxRows` lines: measured from the text's own height.
  useLayoutEffect(() => {
    const element = area.current;
    if (!element || maxRows === undefined) return;
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight) || 20;
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    element.style.height = 'auto';
    const wanted = Math.min(Math.max(element.scrollHeight, rows * line + padding), maxRows * line + padding);
    element.style.height = `${wanted}px`;
  }, [value, rows, maxRows]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!onEnter || event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onEnter();
  };

  const remember = () => {
    const element = area.current;
    if (element) selection.current = { start: element.selectionStart, end: element.selectionEnd };
  };
  const insert = (text: string) => {
    const { start, end } = selection.current;
    const next = insertAt(value, text, start, end);
    onChange(next.value);
    selection.current = { start: next.caret, end: next.caret };
    requestAnimationFrame(() => {
      const element = area.current;
      if (!element) return;
      element.focus();
      element.setSelectionRange(next.caret, next.caret);
    });
  };

  const openImages = () => {
    if (!session) {
      toast.warning(uploadFailureText(t, 'upload.loginFirst'));
      return;
    }
    remember();
    setDialogOpen(true);
  };

  return (
    <div className="rounded-lg border border-zinc-300 bg-white focus-within:border-accent dark:border-zinc-600 dark:bg-zinc-900">
      <label htmlFor={id} className="sr-only">
        {label ?? t('composer.label')}
      </label>
      <textarea
        ref={area}
        id={id}
        value={value}
        rows={rows}
        maxLength={maxLength}
        onChange={(event) => {
          onChange(event.target.value);
          selection.current = { start: event.target.selectionStart, end: event.target.selectionEnd };
        }}
        onSelect={remember}
        onBlur={remember}
        onKeyDown={onKeyDown}
        aria-describedby={describedBy}
        className={`block w-full rounded-t-lg bg-transparent px-3 py-2 text-sm focus:outline-none ${maxRows === undefined ? 'resize-y' : 'resize-none'}`}
      />
      <div className="flex items-center gap-1 border-t border-zinc-200 px-1.5 py-1 dark:border-zinc-700">
        <EmojiPicker onSelect={insert} placement={emojiPlacement} />
        <button
          type="button"
          onClick={openImages}
          aria-haspopup="dialog"
          className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100 hover:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800"
        >
          <Icon name="images" className="size-5" />
          <span>{t('composer.image')}</span>
        </button>
        {maxLength !== undefined && (
          <span className="ml-auto px-2 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
            {value.length} / {maxLength}
          </span>
        )}
        {actions}
      </div>
      <ImageInsertDialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onInsert={(urls) => insert(imageMarkers(urls))}
        uploadTarget={uploadTarget}
      />
    </div>
  );
}
