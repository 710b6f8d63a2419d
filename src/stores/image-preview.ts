import { atom } from 'nanostores';
import { endpointUrl } from '../shared/contract.ts';
import { mediaContract } from '../shared/media/media.contract.ts';

/** Image preview limits and timings (spec §2.8, §4, §9). */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 3;
export const ZOOM_STEP = 0.15;
export const ROTATE_STEP = 90;
export const DOUBLE_TAP_ZOOM = 2;
export const DOUBLE_TAP_MS = 300;
export const CLOSE_ANIMATION_MS = 300;
/** A touch that moves less than this is a tap, not a drag. */
export const TAP_SLOP_PX = 10;

/** Marks an element as previewable; its value is the full-size image URL. */
export const PREVIEW_SRC_ATTR = 'data-preview-src';
/** Elements sharing this attribute's value form one gallery, in DOM order. */
export const PREVIEW_GROUP_ATTR = 'data-preview-group';
export const PREVIEW_SELECTOR = `[${PREVIEW_SRC_ATTR}]`;

export type ImageLoadStatus = 'loading' | 'loaded' | 'error';

export interface Pan {
  x: number;
  y: number;
}

export interface ImagePreviewState {
  open: boolean;
  /** True during the 300 ms closing animation; the overlay stays mounted until it ends. */
  closing: boolean;
  images: string[];
  index: number;
  zoom: number;
  /** Degrees, growing by 90 per turn so the animation never spins backwards. */
  rotation: number;
  pan: Pan;
  /** Load status of the current image. */
  status: ImageLoadStatus;
}

const initialState: ImagePreviewState = {
  open: false,
  closing: false,
  images: [],
  index: 0,
  zoom: 1,
  rotation: 0,
  pan: { x: 0, y: 0 },
  status: 'loading',
};

export const $imagePreview = atom<ImagePreviewState>(initialState);

let closeTimer: ReturnType<typeof setTimeout> | null = null;

function clearCloseTimer(): void {
  if (closeTimer) clearTimeout(closeTimer);
  closeTimer = null;
}

/** Applies a change while the overlay is open and not already closing. */
function update(change: (state: ImagePreviewState) => Partial<ImagePreviewState>): void {
  const state = $imagePreview.get();
  if (!state.open || state.closing) return;
  $imagePreview.set({ ...state, ...change(state) });
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Keeps a zoom within 0.5–3, rounded to 2 decimals so repeated steps do not drift. */
export function clampZoom(zoom: number): number {
  if (Number.isNaN(zoom)) return 1;
  return round2(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)));
}

const wrapIndex = (index: number, length: number) => ((index % length) + length) % length;

/** Opens the overlay on `images[index]` (the index is clamped into range); an empty list does nothing. */
export function openImagePreview(images: readonly string[], index = 0): void {
  const list = images.filter((src) => src !== '');
  if (list.length === 0) return;
  clearCloseTimer();
  const at = Number.isFinite(index) ? Math.min(list.length - 1, Math.max(0, Math.floor(index))) : 0;
  $imagePreview.set({ ...initialState, open: true, images: list, index: at });
}

/** Starts the 300 ms closing animation, then resets zoom, rotation and pan and clears the images. */
export function closeImagePreview(): void {
  const state = $imagePreview.get();
  if (!state.open || state.closing) return;
  $imagePreview.set({ ...state, closing: true });
  closeTimer = setTimeout(resetImagePreview, CLOSE_ANIMATION_MS);
}

/** Closes at once, without the animation (page navigation, tests). */
export function resetImagePreview(): void {
  clearCloseTimer();
  $imagePreview.set(initialState);
}

function showImage(offset: number): void {
  update((s) => {
    if (s.images.length < 2) return {};
    return { ...initialState, open: true, images: s.images, index: wrapIndex(s.index + offset, s.images.length) };
  });
}

/** Next image, wrapping from the last to the first; resets the transform. */
export const nextImage = () => showImage(1);
/** Previous image, wrapping from the first to the last; resets the transform. */
export const previousImage = () => showImage(-1);

export const setZoom = (zoom: number) => update(() => ({ zoom: clampZoom(zoom) }));
export const zoomIn = () => update((s) => ({ zoom: clampZoom(s.zoom + ZOOM_STEP) }));
export const zoomOut = () => update((s) => ({ zoom: clampZoom(s.zoom - ZOOM_STEP) }));

/** Double tap: zoom 1 goes to 2; any other zoom goes back to 1, centred. */
export const toggleZoom = () =>
  update((s) => (s.zoom === 1 ? { zoom: DOUBLE_TAP_ZOOM } : { zoom: 1, pan: { x: 0, y: 0 } }));

export const rotate = () => update((s) => ({ rotation: s.rotation + ROTATE_STEP }));

/** Zoom 1, no pan, upright: the nearest whole turn, so resetting never spins the image round. */
export const resetTransform = () =>
  update((s) => ({ zoom: 1, pan: { x: 0, y: 0 }, rotation: Math.round(s.rotation / 360) * 360 || 0 }));

export const setPan = (pan: Pan) => update(() => ({ pan: { x: pan.x, y: pan.y } }));
export const panBy = (dx: number, dy: number) => update((s) => ({ pan: { x: s.pan.x + dx, y: s.pan.y + dy } }));

/** Load events name their image, so a late event from the previous image cannot change the current one. */
export const markLoaded = (src: string) => update((s) => (s.images[s.index] === src ? { status: 'loaded' } : {}));
export const markFailed = (src: string) => update((s) => (s.images[s.index] === src ? { status: 'error' } : {}));

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

/** Anything with attributes: a DOM Element, or a fake in tests. */
export interface PreviewNode {
  getAttribute(name: string): string | null;
}

/**
 * The gallery a clicked previewable element belongs to: every candidate with the same
 * `data-preview-group`, in the candidates' (DOM) order; without a group, a gallery of one.
 */
export function collectGroup(
  target: PreviewNode,
  candidates: Iterable<PreviewNode>,
): { images: string[]; index: number } {
  const src = target.getAttribute(PREVIEW_SRC_ATTR);
  if (!src) return { images: [], index: 0 };
  const group = target.getAttribute(PREVIEW_GROUP_ATTR);
  if (!group) return { images: [src], index: 0 };
  const members = [...candidates].filter(
    (node) => node.getAttribute(PREVIEW_GROUP_ATTR) === group && Boolean(node.getAttribute(PREVIEW_SRC_ATTR)),
  );
  const index = members.indexOf(target);
  if (index === -1) return { images: [src], index: 0 };
  return { images: members.map((node) => node.getAttribute(PREVIEW_SRC_ATTR) ?? ''), index };
}

/** A previewable element as the delegated listeners see it (an Element in the browser). */
export interface TriggerNode extends PreviewNode {
  tagName: string;
  closest(selectors: string): TriggerNode | null;
}

export interface TriggerClick {
  target: unknown;
  button: number;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  preventDefault(): void;
}

export interface TriggerKey {
  target: unknown;
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  preventDefault(): void;
}

function isTriggerNode(value: unknown): value is TriggerNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<TriggerNode>).closest === 'function' &&
    typeof (value as Partial<TriggerNode>).getAttribute === 'function'
  );
}

function openFrom(node: TriggerNode, candidates: () => Iterable<PreviewNode>): boolean {
  const { images, index } = collectGroup(node, candidates());
  if (images.length === 0) return false;
  openImagePreview(images, index);
  return true;
}

const hasModifier = (e: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }) =>
  e.altKey || e.ctrlKey || e.metaKey || e.shiftKey;

/** A plain left click on (or inside) a previewable element opens its gallery. Returns true if it did. */
export function handleTriggerClick(event: TriggerClick, candidates: () => Iterable<PreviewNode>): boolean {
  // A modified click keeps its browser meaning (e.g. open a wrapping link in a new tab).
  if (event.defaultPrevented || event.button !== 0 || hasModifier(event)) return false;
  if (!isTriggerNode(event.target)) return false;
  const node = event.target.closest(PREVIEW_SELECTOR);
  if (!node || !openFrom(node, candidates)) return false;
  event.preventDefault();
  return true;
}

/** Enter or Space on a focused previewable element opens its gallery, unless the browser turns that key into a click. */
export function handleTriggerKey(event: TriggerKey, candidates: () => Iterable<PreviewNode>): boolean {
  if (event.defaultPrevented || hasModifier(event) || (event.key !== 'Enter' && event.key !== ' ')) return false;
  const node = event.target;
  if (!isTriggerNode(node) || !node.getAttribute(PREVIEW_SRC_ATTR)) return false;
  const tag = node.tagName.toUpperCase();
  // Buttons click on Enter and Space, links on Enter: the click listener handles those.
  if (tag === 'BUTTON' || (tag === 'A' && event.key === 'Enter' && node.getAttribute('href') !== null)) return false;
  if (!openFrom(node, candidates)) return false;
  event.preventDefault();
  return true;
}

/** The parts of `document` the delegated listeners need. */
export interface TriggerHost {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  querySelectorAll(selectors: string): Iterable<PreviewNode>;
}

let installs = 0;
let uninstall: (() => void) | null = null;

/**
 * Installs one delegated click and keydown listener on the document however many islands mount
 * (counted, so a remount or StrictMode double mount is harmless); the returned function releases it.
 */
export function installPreviewTriggers(host: TriggerHost): () => void {
  installs += 1;
  if (installs === 1) {
    const candidates = () => host.querySelectorAll(PREVIEW_SELECTOR);
    const onClick = (event: Event) => handleTriggerClick(event as unknown as TriggerClick, candidates);
    const onKey = (event: Event) => handleTriggerKey(event as unknown as TriggerKey, candidates);
    // An open overlay would be stranded over the next page after a client-side navigation.
    const onNavigate = () => resetImagePreview();
    host.addEventListener('click', onClick);
    host.addEventListener('keydown', onKey);
    host.addEventListener('astro:before-preparation', onNavigate);
    uninstall = () => {
      host.removeEventListener('click', onClick);
      host.removeEventListener('keydown', onKey);
      host.removeEventListener('astro:before-preparation', onNavigate);
    };
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    installs -= 1;
    if (installs === 0) {
      uninstall?.();
      uninstall = null;
    }
  };
}

/** The site's download proxy for an image (spec §7 "Other"). */
export const downloadProxyUrl = (src: string) => endpointUrl(mediaContract.downloadImage, { query: { url: src } });

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
    const response = await deps.fetch(downloadProxyUrl(src));
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
