import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { $session } from '../../../stores/session.ts';
import RichText from '../display/RichText.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import RichCommentInput from './RichCommentInput.tsx';
import { useEmojiRendering } from './use-emoji.ts';

/** The rich comment input with a live preview of the text as comments show it (the /test page). */
function RichCommentPlayground() {
  const t = useT();
  const session = useStore($session);
  const [text, setText] = useState('');
  const emoji = useEmojiRendering();
  return (
    <div className="flex flex-col gap-6">
      <RichCommentInput
        value={text}
        onChange={setText}
        uploadTarget={{ type: 'comment', id: session?.userId ?? 0 }}
        maxLength={1000}
      />
      <section aria-labelledby="composer-preview" className="flex flex-col gap-2">
        <h2 id="composer-preview" className="text-base font-semibold text-zinc-900 dark:text-white">
          {t('composer.preview')}
        </h2>
        <div
          data-testid="composer-preview"
          className="min-h-24 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        >
          {text ? (
            <RichText text={text} {...emoji} />
          ) : (
            <p className="text-zinc-600 dark:text-zinc-400">{t('composer.previewEmpty')}</p>
          )}
        </div>
      </section>
    </div>
  );
}

export default withLocale(RichCommentPlayground);
