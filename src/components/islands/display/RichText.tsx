import { useId, type CSSProperties, type ReactNode } from 'react';
import { parseMarkers } from '../../../shared/comment-markers.ts';

export interface RichTextProps {
  text: string;
  /**
   * The image of an emoji code `set/name` (a URL, or a URL with a density srcset), or null when unknown or
   * not loaded. Without a resolver, an emoji marker is shown as its raw marker text.
   */
  resolveEmoji?: (code: string) => EmojiImage | string | null;
  /** Called when an emoji's image fails to load (the resolver may then answer null: the code shows as text). */
  onEmojiError?: (code: string) => void;
  /** Clamp to at most this many lines (CSS line clamp). */
  maxLines?: number;
  /** Preview group id for the images (default: a React useId()). */
  previewGroup?: string;
  className?: string;
}

const EMOJI_SIZE_PX = 36;

export interface EmojiImage {
  src: string;
  srcSet?: string;
}

function clampStyle(maxLines: number | undefined): CSSProperties | undefined {
  if (maxLines === undefined || !Number.isFinite(maxLines) || maxLines < 1) return undefined;
  return {
    display: '-webkit-box',
    WebkitBoxOrient: 'vertical',
    WebkitLineClamp: Math.floor(maxLines),
    overflow: 'hidden',
  };
}

/**
 * Comment and message text with emoji and images, rendered as elements (never as HTML). Images carry
 * `data-preview-src`/`data-preview-group`, so the image preview opens them as one gallery per text.
 */
export default function RichText({
  text,
  resolveEmoji,
  onEmojiError,
  maxLines,
  previewGroup,
  className,
}: RichTextProps) {
  const generatedGroup = useId();
  const group = previewGroup ?? generatedGroup;
  const nodes: ReactNode[] = [];
  // Unresolved emoji read as text: join them with their neighbours into one text node.
  let pending = '';
  const flush = () => {
    if (pending) nodes.push(pending);
    pending = '';
  };

  for (const token of parseMarkers(text)) {
    if (token.type === 'text') {
      pending += token.text;
    } else if (token.type === 'newline') {
      flush();
      nodes.push(<br key={nodes.length} />);
    } else if (token.type === 'emoji') {
      const resolved = resolveEmoji?.(token.code) ?? null;
      const image = typeof resolved === 'string' ? { src: resolved } : resolved;
      if (!image?.src) {
        pending += token.raw;
        continue;
      }
      flush();
      nodes.push(
        <img
          key={nodes.length}
          src={image.src}
          srcSet={image.srcSet || undefined}
          width={EMOJI_SIZE_PX}
          height={EMOJI_SIZE_PX}
          alt={`表情:${token.code}`}
          onError={onEmojiError ? () => onEmojiError(token.code) : undefined}
          className="inline-block size-9 align-text-bottom"
          loading="lazy"
          decoding="async"
        />,
      );
    } else {
      flush();
      nodes.push(
        <img
          key={nodes.length}
          src={token.url}
          alt={`图片${token.index}`}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          data-preview-src={token.url}
          data-preview-group={group}
          className="my-1 inline-block h-auto max-h-48 max-w-full cursor-zoom-in rounded-md align-bottom"
        />,
      );
    }
  }
  flush();

  return (
    <div className={`whitespace-pre-wrap break-words${className ? ` ${className}` : ''}`} style={clampStyle(maxLines)}>
      {nodes}
    </div>
  );
}
