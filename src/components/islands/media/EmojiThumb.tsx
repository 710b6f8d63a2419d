import { EMOJI_DISPLAY_PX } from '../../../shared/emoji/emoji-model.ts';
import { emojiImage, useImageOptions } from './use-emoji.ts';

/** An emoji's image as the picker and the emoji pages show it: 36×36 webp through /img, decorative. */
export function EmojiThumb({ src, small = false }: { src: string; small?: boolean }) {
  const image = emojiImage(src, useImageOptions());
  const px = small ? 20 : EMOJI_DISPLAY_PX;
  return (
    <img
      src={image.src}
      srcSet={image.srcSet || undefined}
      alt=""
      width={px}
      height={px}
      className={small ? 'size-5' : 'size-9'}
      loading="lazy"
      decoding="async"
    />
  );
}
