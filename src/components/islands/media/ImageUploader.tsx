import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import type { CompressOptions } from '../../../stores/image-compress.ts';
import { uploadFailureText, uploadImage, type UploadStatus, type UploadTarget } from '../../../stores/upload.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';

/** Images held by one uploader in multiple mode unless told otherwise (spec §9). */
export const UPLOADER_MAX_IMAGES = 9;
/** Display size of an image, in px (spec §2.11; the insert dialog uses 200). */
export const UPLOADER_SIZE_PX = 300;

export interface UploadItem {
  key: string;
  status: UploadStatus;
  /** What is shown: an object URL while the file is on its way, then the public URL. */
  preview: string;
  /** The public URL once done. */
  url: string | null;
  /** Bytes sent, 0–100. */
  progress: number;
  error: string | null;
  /** Images the uploader was given: they can be removed, never replaced. */
  existing: boolean;
  /** Kept for a retry. */
  file: File | null;
}

export interface ImageUploaderProps {
  target: UploadTarget;
  mode?: 'single' | 'multiple';
  max?: number;
  /** Display size of each image in px. */
  size?: number;
  /** Images already there (their public URLs). */
  initial?: readonly string[];
  /** The public URLs of the images done, in order, whenever they change (with the chosen files' names). */
  onChange?: (urls: string[], entries: UploadedEntry[]) => void;
  /** True while an image is being processed or uploaded. */
  onBusyChange?: (busy: boolean) => void;
  compress?: Partial<CompressOptions>;
  /** Offers inserting an image by its http(s) link. */
  allowLink?: boolean;
  label?: string;
}

const HTTP_LINK = /^https?:\/\/\S+$/i;

/** The problem with an image link, as a message key, or null when it can be inserted (spec §5). */
export function imageLinkProblem(link: string): 'uploader.linkEmpty' | 'uploader.linkInvalid' | null {
  const value = link.trim();
  if (!value) return 'uploader.linkEmpty';
  if (!HTTP_LINK.test(value)) return 'uploader.linkInvalid';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'uploader.linkInvalid';
  } catch {
    return 'uploader.linkInvalid';
  }
}

/** The files to take from a list: images only, no more than `room`. */
export function pickFiles(files: readonly File[], room: number): File[] {
  return files.filter((file) => file.type.startsWith('image/')).slice(0, Math.max(0, room));
}

/** An image done: its public URL and the name of the file it came from (none for links and existing images). */
export interface UploadedEntry {
  url: string;
  fileName: string | null;
}

let keys = 0;
const nextKey = () => `upload-${++keys}`;

/** An image that needs no upload: one the uploader was given, or a link. */
const readyItem = (url: string, existing: boolean): UploadItem => ({
  key: nextKey(),
  status: 'done',
  preview: url,
  url,
  progress: 100,
  error: null,
  existing,
  file: null,
});

/**
 * The image uploader (spec §2.11): single mode holds one image (a new one replaces it); multiple mode
 * holds up to `max`, and images already there can be removed but not replaced. Each image goes
 * processing → uploading → done or error, with progress; images come from the file chooser, a drop
 * or a paste, or (optionally) an http(s) link.
 */
export default function ImageUploader({
  target,
  mode = 'multiple',
  max = UPLOADER_MAX_IMAGES,
  size = UPLOADER_SIZE_PX,
  initial = [],
  onChange,
  onBusyChange,
  compress,
  allowLink = false,
  label,
}: ImageUploaderProps) {
  const t = useT();
  const limit = mode === 'single' ? 1 : max;
  const [items, setItems] = useState<UploadItem[]>(() => initial.slice(0, limit).map((url) => readyItem(url, true)));
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState(false);
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const controllers = useRef(new Map<string, AbortController>());
  const queue = useRef(Promise.resolve());
  const ids = { input: useId(), link: useId(), linkError: useId(), hint: useId() };

  const patch = (key: string, change: Partial<UploadItem>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  // Tell the parent what is done and whether work is under way.
  const done = items
    .filter((item) => item.status === 'done' && item.url)
    .map((item) => ({ url: item.url!, fileName: item.file?.name ?? null }));
  const doneUrls = done.map((entry) => entry.url);
  const busy = items.some((item) => item.status === 'processing' || item.status === 'uploading');
  const doneKey = doneUrls.join('\n');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    onChange?.(doneUrls, done);
  }, [doneKey]);
  useEffect(() => onBusyChange?.(busy), [busy]);

  // Object URLs and uploads end with the uploader.
  const itemsRef = useRef(items);
  itemsRef.current = items;
  useEffect(
    () => () => {
      for (const controller of controllers.current.values()) controller.abort();
      for (const item of itemsRef.current) if (item.preview.startsWith('blob:')) URL.revokeObjectURL(item.preview);
    },
    [],
  );

  /** An item's number as the reader sees it (1-based), at the time of asking. */
  const positionOf = (key: string) => itemsRef.current.findIndex((entry) => entry.key === key) + 1;

  /** Uploads one at a time, in the order chosen (compression is the slow part and runs one at a time). */
  const start = (item: UploadItem) => {
    const controller = new AbortController();
    controllers.current.set(item.key, controller);
    queue.current = queue.current.then(async () => {
      if (controller.signal.aborted) return;
      try {
        const uploaded = await uploadImage(item.file, target, {
          compress,
          signal: controller.signal,
          onStatus: (status) => patch(item.key, { status, progress: status === 'done' ? 100 : 0 }),
          onProgress: (loaded, total) =>
            patch(item.key, { progress: total > 0 ? Math.round((loaded / total) * 100) : 0 }),
        });
        patch(item.key, { status: 'done', url: uploaded.url, progress: 100, error: null });
        setAnnouncement(t('uploader.announceDone', { index: positionOf(item.key) }));
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = uploadFailureText(t, error);
        patch(item.key, { status: 'error', error: message });
        setAnnouncement(`${t('uploader.image', { index: positionOf(item.key) })}: ${message}`);
      } finally {
        controllers.current.delete(item.key);
      }
    });
  };

  const addFiles = (files: readonly File[]) => {
    const wrongType = files.find((file) => !file.type.startsWith('image/'));
    if (wrongType) setAnnouncement(uploadFailureText(t, 'upload.invalidType'));
    const single = mode === 'single';
    // In single mode a new image replaces the one held, so there is always room for one.
    const current = single ? [] : items;
    const chosen = pickFiles(files, limit - current.length);
    if (chosen.length === 0) {
      if (files.length > 0 && !wrongType) setAnnouncement(t('uploader.full', { max: limit }));
      return;
    }
    if (single) for (const item of items) remove(item.key, false);
    const added = chosen.map<UploadItem>((file) => ({
      key: nextKey(),
      status: 'processing',
      preview: URL.createObjectURL(file),
      url: null,
      progress: 0,
      error: null,
      existing: false,
      file,
    }));
    setItems((list) => [...(single ? [] : list), ...added]);
    added.forEach(start);
    setAnnouncement(t('uploader.announceAdded', { index: current.length + added.length }));
  };

  function remove(key: string, announce = true) {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    const index = items.findIndex((item) => item.key === key);
    const item = items[index];
    if (item?.preview.startsWith('blob:')) URL.revokeObjectURL(item.preview);
    setItems((list) => list.filter((entry) => entry.key !== key));
    if (!announce || index < 0) return;
    setAnnouncement(t('uploader.announceRemoved', { index: index + 1 }));
    // Focus goes to the next image's remove button, else the previous one's, else the add button.
    const next = items[index + 1] ?? items[index - 1];
    focusAfterRender.current = next ? `remove-${next.key}` : 'add';
  }
  const focusAfterRender = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const wanted = focusAfterRender.current;
    if (!wanted) return;
    focusAfterRender.current = null;
    root.current?.querySelector<HTMLElement>(`[data-focus="${wanted}"]`)?.focus();
  }, [items]);

  const retry = (item: UploadItem) => {
    patch(item.key, { status: 'processing', error: null, progress: 0 });
    start(item);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  };
  const onPaste = (event: ClipboardEvent) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    addFiles(files);
  };
  const insertLink = (event: { preventDefault: () => void }) => {
    event.preventDefault();
    const problem = imageLinkProblem(link);
    if (problem) {
      setLinkError(t(problem));
      return;
    }
    if (mode === 'multiple' && items.length >= limit) {
      setLinkError(t('uploader.full', { max: limit }));
      return;
    }
    const url = link.trim();
    const item = readyItem(url, false);
    if (mode === 'single') for (const held of items) remove(held.key, false);
    setItems((list) => (mode === 'single' ? [item] : [...list, item]));
    setLink('');
    setLinkError(null);
    setAnnouncement(t('uploader.announceAdded', { index: mode === 'single' ? 1 : items.length + 1 }));
  };

  const full = mode === 'multiple' && items.length >= limit;
  const tile = { width: `min(${size}px, 100%)` };

  return (
    <div
      ref={root}
      className="flex flex-col gap-3"
      onPaste={onPaste}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      role="group"
      aria-label={label ?? t('uploader.label')}
    >
      <ul className="flex flex-wrap gap-3">
        {items.map((item, index) => (
          <li
            key={item.key}
            style={tile}
            className="relative aspect-square overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-800"
          >
            <img
              src={item.preview}
              alt={t('uploader.image', { index: index + 1 })}
              className={`size-full object-cover ${item.status === 'done' ? '' : 'opacity-60'}`}
              referrerPolicy="no-referrer"
            />
            <ItemStatus item={item} onRetry={() => retry(item)} />
            <button
              type="button"
              onClick={() => remove(item.key)}
              data-focus={`remove-${item.key}`}
              aria-label={t('uploader.remove', { index: index + 1 })}
              className="absolute top-1.5 right-1.5 rounded-full bg-zinc-900/70 p-1 text-white hover:bg-zinc-900"
            >
              <Icon name="x" className="size-4" />
            </button>
          </li>
        ))}
        {!full && (
          <li style={tile} className="aspect-square">
            <button
              type="button"
              onClick={() => input.current?.click()}
              data-focus="add"
              aria-describedby={ids.hint}
              className={`flex size-full flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-3 text-center text-sm text-zinc-600 hover:border-accent hover:text-accent dark:text-zinc-300 ${dragging ? 'border-accent bg-primary-50 dark:bg-primary-900/40' : 'border-zinc-300 dark:border-zinc-600'}`}
            >
              <Icon name="image-plus" className="size-7" />
              <span>{mode === 'single' && items.length > 0 ? t('uploader.replace') : t('uploader.add')}</span>
              {/* Small tiles (emoji) keep to the icon and the label; the hint is still read out. */}
              <span id={ids.hint} className={size < 150 ? 'sr-only' : 'text-xs text-zinc-600 dark:text-zinc-400'}>
                {t('uploader.hint')}
              </span>
            </button>
          </li>
        )}
      </ul>
      <input
        ref={input}
        id={ids.input}
        type="file"
        accept="image/*"
        multiple={mode === 'multiple'}
        className="hidden"
        onChange={(event) => {
          addFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      {mode === 'multiple' && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {t('uploader.count', { count: items.length, max: limit })}
        </p>
      )}
      {allowLink && (
        // Not a <form>: the uploader sits inside other forms (the catalogue editors), and a form in a form
        // is not HTML (the parser drops it, and the page would not hydrate). Enter and the button insert.
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.link} className="text-sm font-medium text-zinc-700 dark:text-zinc-200">
            {t('uploader.link')}
          </label>
          <div className="flex gap-2">
            <input
              id={ids.link}
              type="url"
              inputMode="url"
              value={link}
              onChange={(event) => {
                setLink(event.target.value);
                setLinkError(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.nativeEvent.isComposing) insertLink(event);
              }}
              placeholder={t('uploader.linkPlaceholder')}
              aria-invalid={linkError ? true : undefined}
              aria-describedby={linkError ? ids.linkError : undefined}
              className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900"
            />
            <button
              type="button"
              onClick={insertLink}
              className="inline-flex items-center gap-1 rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:border-accent dark:border-zinc-600"
            >
              <Icon name="link" className="size-4" />
              {t('uploader.linkInsert')}
            </button>
          </div>
          {linkError && (
            <p id={ids.linkError} role="alert" className="text-sm text-red-700 dark:text-red-400">
              {linkError}
            </p>
          )}
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}

function ItemStatus({ item, onRetry }: { item: UploadItem; onRetry: () => void }) {
  const t = useT();
  if (item.status === 'done') return null;
  if (item.status === 'error') {
    return (
      <div className="absolute inset-x-0 bottom-0 flex flex-col gap-1 bg-red-50/95 p-2 text-xs text-red-800 dark:bg-red-950/95 dark:text-red-200">
        <p role="alert" className="line-clamp-3">
          {item.error}
        </p>
        {item.file && (
          <button
            type="button"
            onClick={onRetry}
            className="inline-flex items-center gap-1 self-start rounded border border-red-300 px-2 py-0.5 hover:bg-red-100 dark:border-red-800 dark:hover:bg-red-900"
          >
            <Icon name="rotate-ccw" className="size-3.5" />
            {t('uploader.retry')}
          </button>
        )}
      </div>
    );
  }
  const text = item.status === 'processing' ? t('upload.status.processing') : t('upload.status.uploading');
  return (
    <div className="absolute inset-x-0 bottom-0 bg-white/90 p-2 text-xs text-zinc-700 dark:bg-zinc-900/90 dark:text-zinc-200">
      <div className="flex justify-between">
        <span>{text}</span>
        {item.status === 'uploading' && <span>{t('uploader.progress', { percent: item.progress })}</span>}
      </div>
      <div
        role="progressbar"
        aria-label={text}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={item.status === 'uploading' ? item.progress : undefined}
        className="mt-1 h-1 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-700"
      >
        <div
          className={`h-full bg-accent-strong transition-[width] ${item.status === 'processing' ? 'w-1/3 animate-pulse' : ''}`}
          style={item.status === 'uploading' ? { width: `${item.progress}%` } : undefined}
        />
      </div>
    </div>
  );
}
