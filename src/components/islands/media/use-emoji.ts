import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { EMOJI_DISPLAY_PX } from '../../../shared/emoji/emoji-model.ts';
import { densitySrcSet, processImageUrl, type ImageUrlOptions } from '../../../shared/image-url.ts';
import { emojiStore } from '../../../stores/emoji.ts';
import { $publicConfig } from '../../../stores/public-config.ts';
import type { EmojiImage } from '../display/RichText.tsx';

const EMOJI_PARAMS = { fit: 'contain', format: 'webp' } as const;

/** An emoji image at 36×36 webp through /img (72×72 on dense screens). */
export function emojiImage(src: string, options: ImageUrlOptions): EmojiImage {
  return {
    src: processImageUrl(src, { ...EMOJI_PARAMS, width: EMOJI_DISPLAY_PX, height: EMOJI_DISPLAY_PX }, options),
    srcSet: densitySrcSet(src, EMOJI_DISPLAY_PX, EMOJI_DISPLAY_PX, options, EMOJI_PARAMS),
  };
}

/** The image options of the page (image bed and allowed hosts), for /img URLs. */
export function useImageOptions(): ImageUrlOptions {
  const config = useStore($publicConfig);
  return { imageBedUrl: config.imageBedUrl, allowedHosts: config.imageAllowedHosts };
}

/** What `RichText` needs to show emoji: the resolver, and what to do when an image does not load. */
export interface EmojiRendering {
  resolveEmoji: (code: string) => EmojiImage | null;
  onEmojiError: (code: string) => void;
}

/**
 * The emoji props for `RichText`: cached sources at once, others asked for once and shown when they
 * arrive. On the server nothing is resolved, so server HTML and the first client render match.
 */
export function useEmojiRendering(): EmojiRendering {
  const sources = useStore(emojiStore.$sources);
  const options = useImageOptions();
  // The first render in the browser matches the server's (no emoji resolved); the cache applies after it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const resolveEmoji = useCallback(
    (code: string) => {
      if (!hydrated) return null;
      const src = sources[code] ?? emojiStore.sourceOf(code);
      return src ? emojiImage(src, options) : null;
    },
    // The options object is rebuilt every render from these two fields.
    [hydrated, sources, options.imageBedUrl, options.allowedHosts],
  );
  return { resolveEmoji, onEmojiError: emojiStore.forget };
}

/**
 * Emoji the server resolved for this island (the same on the server and in the first render in the
 * browser), then the page's emoji store for the rest once hydrated.
 */
export function useKnownEmojiRendering(
  known: Readonly<Record<string, string>>,
  imageOptions: ImageUrlOptions,
): EmojiRendering {
  const store = useEmojiRendering();
  const resolveEmoji = useCallback(
    (code: string) => {
      const src = known[code];
      return src ? emojiImage(src, imageOptions) : store.resolveEmoji(code);
    },
    [known, imageOptions, store.resolveEmoji],
  );
  return useMemo(() => ({ resolveEmoji, onEmojiError: store.onEmojiError }), [resolveEmoji, store.onEmojiError]);
}
