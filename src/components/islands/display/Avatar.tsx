import { useEffect, useRef, useState } from 'react';
import { processImageUrl, type ImageUrlOptions } from '../../../shared/image-url.ts';

export type AvatarSize = 'small' | 'medium' | 'large';

export interface AvatarProps {
  src?: string | null;
  name: string;
  size?: AvatarSize;
  shape?: 'circle' | 'square';
  className?: string;
  imageOptions: ImageUrlOptions;
}

export const DEFAULT_AVATAR = '/images/default-avatar.svg';

export const AVATAR_PIXELS: Record<AvatarSize, number> = { small: 32, medium: 40, large: 48 };
const SIZE_CLASS: Record<AvatarSize, string> = { small: 'size-8', medium: 'size-10', large: 'size-12' };

/** The URL to request for an avatar: 100×100 avif through the image rule, or the default when empty. */
export function avatarSrc(src: string | null | undefined, imageOptions: ImageUrlOptions): string {
  if (!src?.trim()) return DEFAULT_AVATAR;
  return processImageUrl(src, { width: 100, height: 100, fit: 'cover', format: 'avif' }, imageOptions);
}

/**
 * The URL to show, given the last URL that failed to load. Remembering which URL broke, not just that
 * one did, lets a new src be tried.
 */
export function shownAvatar(wanted: string, failed: string | null): string {
  return wanted === failed ? DEFAULT_AVATAR : wanted;
}

/** The failed URL after `shown` fires an error: a broken default changes nothing, so errors cannot loop. */
export function failedAfterError(shown: string, failed: string | null): string | null {
  return shown === DEFAULT_AVATAR ? failed : shown;
}

/** A user's avatar, requested at 100×100 avif; the default silhouette when missing or broken. */
export default function Avatar({ src, name, size = 'medium', shape = 'circle', className, imageOptions }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = shownAvatar(avatarSrc(src, imageOptions), failed);
  const fallBack = () => setFailed((current) => failedAfterError(shown, current));
  const ref = useRef<HTMLImageElement>(null);
  // A server-rendered image that broke before hydration fired its error event before React listened;
  // later images report through onError.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) fallBack();
  }, []);
  const classes = [
    'inline-block shrink-0 bg-zinc-100 object-cover dark:bg-zinc-800',
    SIZE_CLASS[size],
    shape === 'square' ? 'rounded-md' : 'rounded-full',
    className,
  ];
  return (
    <img
      src={shown}
      alt={name}
      width={AVATAR_PIXELS[size]}
      height={AVATAR_PIXELS[size]}
      loading="lazy"
      decoding="async"
      className={classes.filter(Boolean).join(' ')}
      onError={fallBack}
      ref={ref}
    />
  );
}
