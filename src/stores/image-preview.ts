import { atom } from 'nanostores';

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

/** The state of the closed overlay, and what an image starts from. */
export const CLOSED_PREVIEW: ImagePreviewState = {
  open: false,
  closing: false,
  images: [],
  index: 0,
  zoom: 1,
  rotation: 0,
  pan: { x: 0, y: 0 },
  status: 'loading',
};

export const $imagePreview = atom<ImagePreviewState>(CLOSED_PREVIEW);

let closeTimer: ReturnType<typeof setTimeout> | null = null;

function clearCloseTimer(): void {
  if (closeTimer) clearTimeout(closeTimer);
  closeTimer = null;
}

/** Applies a change while the overlay is open and not already closing (the overlay's actions use it). */
export function updateOpenPreview(change: (state: ImagePreviewState) => Partial<ImagePreviewState>): void {
  const state = $imagePreview.get();
  if (!state.open || state.closing) return;
  $imagePreview.set({ ...state, ...change(state) });
}

/** Opens the overlay on `images[index]` (the index is clamped into range); an empty list does nothing. */
export function openImagePreview(images: readonly string[], index = 0): void {
  const list = images.filter((src) => src !== '');
  if (list.length === 0) return;
  clearCloseTimer();
  const at = Number.isFinite(index) ? Math.min(list.length - 1, Math.max(0, Math.floor(index))) : 0;
  $imagePreview.set({ ...CLOSED_PREVIEW, open: true, images: list, index: at });
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
  $imagePreview.set(CLOSED_PREVIEW);
}

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
