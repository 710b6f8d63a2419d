import { endpointUrl } from '../shared/contract.ts';
import {
  DOUBLE_TAP_MS,
  DOUBLE_TAP_ZOOM,
  MAX_ZOOM,
  MIN_ZOOM,
  ROTATE_STEP,
  TAP_SLOP_PX,
  ZOOM_STEP,
  CLOSED_PREVIEW,
  closeImagePreview,
  updateOpenPreview,
  type ImagePreviewState,
  type Pan,
} from './image-preview.ts';

/*
 * What the open image preview does: switch images, zoom, rotate, pan, keys, wheel and gestures, and
 * downloads. The overlay loads this with itself; opening and closing (image-preview.ts) are on every page.
 */

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Keeps a zoom within 0.5–3, rounded to 2 decimals so repeated steps do not drift. */
export function clampZoom(zoom: number): number {
  if (Number.isNaN(zoom)) return 1;
  return round2(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)));
}

const wrapIndex = (index: number, length: number) => ((index % length) + length) % length;

function showImage(offset: number): void {
  updateOpenPreview((s) => {
    if (s.images.length < 2) return {};
    return { ...CLOSED_PREVIEW, open: true, images: s.images, index: wrapIndex(s.index + offset, s.images.length) };
  });
}

/** Next image, wrapping from the last to the first; resets the transform. */
export const nextImage = () => showImage(1);
/** Previous image, wrapping from the first to the last; resets the transform. */
export const previousImage = () => showImage(-1);

export const setZoom = (zoom: number) => updateOpenPreview(() => ({ zoom: clampZoom(zoom) }));
export const zoomIn = () => updateOpenPreview((s) => ({ zoom: clampZoom(s.zoom + ZOOM_STEP) }));
export const zoomOut = () => updateOpenPreview((s) => ({ zoom: clampZoom(s.zoom - ZOOM_STEP) }));

/** Double tap: zoom 1 goes to 2; any other zoom goes back to 1, centred. */
export const toggleZoom = () =>
  updateOpenPreview((s) => (s.zoom === 1 ? { zoom: DOUBLE_TAP_ZOOM } : { zoom: 1, pan: { x: 0, y: 0 } }));

export const rotate = () => updateOpenPreview((s) => ({ rotation: s.rotation + ROTATE_STEP }));

/** Zoom 1, no pan, upright: the nearest whole turn, so resetting never spins the image round. */
export const resetTransform = () =>
  updateOpenPreview((s) => ({ zoom: 1, pan: { x: 0, y: 0 }, rotation: Math.round(s.rotation / 360) * 360 || 0 }));

export const setPan = (pan: Pan) => updateOpenPreview(() => ({ pan: { x: pan.x, y: pan.y } }));
export const panBy = (dx: number, dy: number) =>
  updateOpenPreview((s) => ({ pan: { x: s.pan.x + dx, y: s.pan.y + dy } }));

/** Load events name their image, so a late event from the previous image cannot change the current one. */
export const markLoaded = (src: string) =>
  updateOpenPreview((s) => (s.images[s.index] === src ? { status: 'loaded' } : {}));
export const markFailed = (src: string) =>
  updateOpenPreview((s) => (s.images[s.index] === src ? { status: 'error' } : {}));

export type PreviewAction = 'close' | 'zoomIn' | 'zoomOut' | 'rotate' | 'reset' | 'previous' | 'next';

const keyActions: Record<string, PreviewAction> = {
  Escape: 'close',
  Esc: 'close',
  '+': 'zoomIn',
  '=': 'zoomIn',
  '-': 'zoomOut',
  r: 'rotate',
  R: 'rotate',
  ' ': 'reset',
  Spacebar: 'reset',
  ArrowLeft: 'previous',
  ArrowRight: 'next',
};

/** What a key (`KeyboardEvent.key`) does while the overlay is open, or null. */
export function keyAction(key: string): PreviewAction | null {
  return Object.hasOwn(keyActions, key) ? (keyActions[key] ?? null) : null;
}

/** One zoom step per wheel event: up zooms in, down zooms out. */
export function wheelAction(deltaY: number): 'zoomIn' | 'zoomOut' | null {
  if (deltaY < 0) return 'zoomIn';
  if (deltaY > 0) return 'zoomOut';
  return null;
}

const actions: Record<PreviewAction, () => void> = {
  close: closeImagePreview,
  zoomIn,
  zoomOut,
  rotate,
  reset: resetTransform,
  previous: previousImage,
  next: nextImage,
};

export function runPreviewAction(action: PreviewAction): void {
  actions[action]();
}

/** True when a tap at `now` follows the previous one within 300 ms. */
export function isDoubleTap(previousTapTime: number | null, now: number): boolean {
  if (previousTapTime === null) return false;
  const gap = now - previousTapTime;
  return gap >= 0 && gap <= DOUBLE_TAP_MS;
}

/** True when a touch moved little enough to count as a tap. */
export const isTapMovement = (dx: number, dy: number) => Math.hypot(dx, dy) < TAP_SLOP_PX;

/** Pinch zoom: the zoom at pinch start scaled by how far the fingers spread since, clamped. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampZoom(startZoom);
  return clampZoom((startZoom * distance) / startDistance);
}

/** The CSS transform of the previewed image. */
export function imageTransform(state: Pick<ImagePreviewState, 'zoom' | 'rotation' | 'pan'>): string {
  return `translate(${state.pan.x}px, ${state.pan.y}px) scale(${state.zoom}) rotate(${state.rotation}deg)`;
}

/** The 'n / total' counter. */
export const counterText = (index: number, total: number) => `${index + 1} / ${total}`;

/**
 * The site's download proxy for an image (spec §7 "Other"). The media contract is loaded on the first
 * download: its schemas (zod) stay out of the script every page loads.
 */
export async function downloadProxyUrl(src: string): Promise<string> {
  const { mediaContract } = await import('../shared/media/media.contract.ts');
  return endpointUrl(mediaContract.downloadImage, { query: { url: src } });
}

/** The file name to save an image as: the URL's last path segment, else 'image'. */
export function imageFileName(src: string): string {
  try {
    const url = new URL(src, 'http://localhost');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'image';
    const segment = url.pathname.split('/').findLast((part) => part !== '');
    if (!segment) return 'image';
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  } catch {
    return 'image';
  }
}

export interface DownloadDeps {
  fetch: (url: string) => Promise<{ ok: boolean; blob(): Promise<Blob> }>;
  saveBlob: (blob: Blob, filename: string) => void;
  openInNewTab: (url: string) => void;
}

/**
 * Saves an image through the download proxy; if the proxy fails or answers non-2xx, opens the
 * original URL in a new tab instead. Resolves with what it did.
 */
export async function downloadImage(src: string, deps: DownloadDeps): Promise<'saved' | 'opened'> {
  try {
    const response = await deps.fetch(await downloadProxyUrl(src));
    if (response.ok) {
      deps.saveBlob(await response.blob(), imageFileName(src));
      return 'saved';
    }
  } catch {
    // Network or proxy failure: fall through to the new tab.
  }
  deps.openInNewTab(src);
  return 'opened';
}
