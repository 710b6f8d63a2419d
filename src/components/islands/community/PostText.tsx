import RichText from '../display/RichText.tsx';
import { useEmojiRendering } from '../media/use-emoji.ts';

interface PostTextProps {
  text: string;
  /** Preview group of the images in the text. */
  group: string;
}

/**
 * A post's text with its emoji and images (spec §2.10). The server renders the text with the markers'
 * images and emoji codes; once hydrated, emoji show as images from the emoji cache.
 */
export default function PostText({ text, group }: PostTextProps) {
  const emoji = useEmojiRendering();
  return (
    <RichText
      text={text}
      previewGroup={group}
      {...emoji}
      className="text-[15px] leading-7 text-zinc-800 dark:text-zinc-200"
    />
  );
}
