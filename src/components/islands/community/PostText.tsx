import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import RichText from '../display/RichText.tsx';
import { useKnownEmojiRendering } from '../media/use-emoji.ts';

interface PostTextProps {
  text: string;
  /** Preview group of the images in the text. */
  group: string;
  /** The emoji of the text the server resolved (code → image address), so its HTML shows them. */
  emoji?: Readonly<Record<string, string>>;
  /** The page's image bed, as the server knows it (emoji get the same addresses on both sides). */
  imageOptions?: ImageUrlOptions;
}

const NO_EMOJI: Readonly<Record<string, string>> = {};
const NO_IMAGE_OPTIONS: ImageUrlOptions = { imageBedUrl: '', allowedHosts: [] };

/**
 * A post's text with its emoji and images (spec §2.10). The server renders the markers' images and the
 * emoji it resolved; once hydrated, any other emoji show from the emoji cache.
 */
export default function PostText({ text, group, emoji = NO_EMOJI, imageOptions = NO_IMAGE_OPTIONS }: PostTextProps) {
  const rendering = useKnownEmojiRendering(emoji, imageOptions);
  return (
    <RichText
      text={text}
      previewGroup={group}
      {...rendering}
      className="text-[15px] leading-7 text-zinc-800 dark:text-zinc-200"
    />
  );
}
