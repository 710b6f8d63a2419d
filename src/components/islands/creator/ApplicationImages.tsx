import { processImageUrl } from '../../../shared/image-url.ts';
import { useImageOptions } from '../media/use-emoji.ts';
import { useT } from '../ui/use-t.ts';

/** An application's images as thumbnails; a click opens them together in the image preview. */
export function ApplicationImages({ images, group }: { images: readonly string[]; group: string }) {
  const t = useT();
  const options = useImageOptions();
  if (images.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t('application.review.images')}>
      {images.map((url, index) => (
        <li key={url}>
          <img
            src={processImageUrl(url, { width: 192, height: 192, fit: 'cover', format: 'webp' }, options)}
            alt={t('application.imageAlt', { n: index + 1 })}
            width={96}
            height={96}
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            data-preview-src={url}
            data-preview-group={group}
            className="size-24 cursor-zoom-in rounded-md border border-zinc-200 object-cover dark:border-zinc-700"
          />
        </li>
      ))}
    </ul>
  );
}
