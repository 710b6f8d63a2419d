import type { FoliateBook, FoliateTocItem, FoliateView } from 'foliate-js/view.js';

/** Opening a volume's EPUB with foliate-js, in the browser only. */

export interface OpenedBook {
  view: FoliateView;
  book: FoliateBook;
  /** Pages turn right to left. */
  rtl: boolean;
  toc: FoliateTocItem[];
}

/** The EPUB of a volume as a File (the API answers it; a member's token goes along for unpublished series). */
export async function fetchVolumeEpub(volumeId: number, token: string | null, signal: AbortSignal): Promise<File> {
  const response = await fetch(`/api/lightnovel/volumes/${volumeId}/epub`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  return new File([blob], `volume-${volumeId}.epub`, { type: 'application/epub+zip' });
}

/**
 * A foliate view of the file, its sections cleaned before they render, added to `host` (and removed
 * again when the book cannot be opened). The caller listens to its events, then calls `view.init` to
 * show the first page.
 */
export async function openBook(file: File, host: HTMLElement): Promise<OpenedBook> {
  // Loaded with the book, not with the page: the sanitiser (DOMPurify) is only needed once a book opens.
  const [{ makeBook }, { isMarkup, sanitiseSection }] = await Promise.all([
    import('foliate-js/view.js'),
    import('./sanitise-section.ts'),
  ]);
  const book = await makeBook(file);
  book.transformTarget?.addEventListener('data', (event) => {
    const { detail } = event as unknown as { detail: { data: unknown; type: string } };
    if (!isMarkup(detail.type)) return;
    detail.data = Promise.resolve(detail.data).then((data) =>
      typeof data === 'string' ? sanitiseSection(data, detail.type) : data,
    );
  });
  const view = document.createElement('foliate-view') as FoliateView;
  view.setAttribute('aria-hidden', 'false');
  view.style.display = 'block';
  view.style.width = '100%';
  view.style.height = '100%';
  host.append(view);
  try {
    await view.open(book);
  } catch (error) {
    // A retry adds a view of its own: this one must not stay behind it.
    view.remove();
    throw error;
  }
  return { view, book, rtl: book.dir === 'rtl', toc: book.toc ?? [] };
}

/** A title from the book's metadata, which may be a string or a language map. */
export function labelOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const first = Object.values(value as Record<string, unknown>).find((v) => typeof v === 'string');
    return typeof first === 'string' ? first : '';
  }
  return '';
}

/** Only web addresses leave the reader, always in a new tab that cannot reach back. */
export function openExternal(href: string): void {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
  window.open(url.href, '_blank', 'noopener,noreferrer');
}
