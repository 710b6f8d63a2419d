import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { COMMENT_TEXT_LIMIT, draftProblem } from '../../../stores/comments.ts';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

// The rich input brings the emoji picker and the image dialog (Radix): members load it once the section
// is on screen; visitors, who see a login prompt instead, never do.
const richInput = onDemand(() => import('../media/RichCommentInput.tsx'));

export interface CommentComposerProps {
  label: string;
  sendLabel: string;
  /** Where images go: `comment/{the author's userId}` (what the comment check expects of our image bed). */
  userId: number;
  sending: boolean;
  /** Resolves true when the text was sent (the input then empties). */
  onSend: (text: string) => Promise<boolean>;
  onCancel?: () => void;
  cancelLabel?: string;
  /** Focus the text once the input is there (a reply opened from its button). */
  autoFocus?: boolean;
  rows?: number;
  testId: string;
}

/** A comment or reply form: the rich input, its counter, and a send button waiting for text. */
export function CommentComposer({
  label,
  sendLabel,
  userId,
  sending,
  onSend,
  onCancel,
  cancelLabel,
  autoFocus = false,
  rows = 4,
  testId,
}: CommentComposerProps) {
  const t = useT();
  const [text, setText] = useState('');
  const [input, loadInput] = useOnDemand(richInput);
  const form = useRef<HTMLFormElement>(null);
  const problem = draftProblem(text);
  const RichInput = input?.default;

  useEffect(() => void loadInput().catch(() => {}), [loadInput]);
  useEffect(() => {
    if (input && autoFocus) form.current?.querySelector('textarea')?.focus();
  }, [input, autoFocus]);

  const submit = async () => {
    if (problem || sending) return;
    if (await onSend(text)) setText('');
  };
  // Ctrl/⌘ + Enter sends, as in most comment boxes.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
    if (event.key === 'Escape' && onCancel && event.target instanceof HTMLTextAreaElement) onCancel();
  };

  return (
    <form
      ref={form}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={onKeyDown}
      className="flex flex-col gap-2"
      data-testid={testId}
    >
      {RichInput ? (
        <RichInput
          value={text}
          onChange={setText}
          uploadTarget={{ type: 'comment', id: userId }}
          label={label}
          maxLength={COMMENT_TEXT_LIMIT}
          rows={rows}
        />
      ) : (
        // Same height as the input, until its code is here.
        <div
          className="flex items-center justify-center rounded-lg border border-zinc-300 bg-white text-sm text-zinc-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-400"
          style={{ minHeight: `${rows * 1.25 + 3.6}rem` }}
          role="status"
        >
          {t('discussion.composer.preparing')}
        </div>
      )}
      {problem === 'discussion.composer.tooLong' && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {t(problem, { max: COMMENT_TEXT_LIMIT })}
        </p>
      )}
      <div className="flex justify-end gap-2">
        {onCancel && (
          <button type="button" className="hk-btn hk-btn-ghost" onClick={onCancel}>
            {cancelLabel}
          </button>
        )}
        <button type="submit" className="hk-btn hk-btn-primary" disabled={problem !== null || sending || !input}>
          {sending ? t('discussion.composer.sending') : sendLabel}
        </button>
      </div>
    </form>
  );
}
