import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $imagePreview,
  CLOSE_ANIMATION_MS,
  DOUBLE_TAP_MS,
  MAX_ZOOM,
  MIN_ZOOM,
  ZOOM_STEP,
  clampZoom,
  closeImagePreview,
  collectGroup,
  counterText,
  downloadImage,
  downloadProxyUrl,
  handleTriggerClick,
  handleTriggerKey,
  imageFileName,
  imageTransform,
  installPreviewTriggers,
  isDoubleTap,
  isTapMovement,
  keyAction,
  markFailed,
  markLoaded,
  nextImage,
  openImagePreview,
  panBy,
  pinchZoom,
  previousImage,
  resetImagePreview,
  resetTransform,
  rotate,
  runPreviewAction,
  setPan,
  setZoom,
  toggleZoom,
  wheelAction,
  zoomIn,
  zoomOut,
  type DownloadDeps,
  type PreviewNode,
  type TriggerClick,
  type TriggerHost,
  type TriggerKey,
  type TriggerNode,
} from './image-preview.ts';

const gallery = ['https://img.example/a.jpg', 'https://img.example/b.jpg', 'https://img.example/c.jpg'];
const state = () => $imagePreview.get();
const repeat = (times: number, action: () => void) => {
  for (let i = 0; i < times; i++) action();
};

beforeEach(() => {
  vi.useFakeTimers();
  resetImagePreview();
});
afterEach(() => {
  resetImagePreview();
  vi.useRealTimers();
});

describe('opening', () => {
  it('starts closed and empty', () => {
    expect(state()).toMatchObject({ open: false, closing: false, images: [], zoom: 1, rotation: 0 });
  });

  it('opens on the given image with a fresh transform and a loading status', () => {
    openImagePreview(gallery, 1);
    expect(state()).toEqual({
      open: true,
      closing: false,
      images: gallery,
      index: 1,
      zoom: 1,
      rotation: 0,
      pan: { x: 0, y: 0 },
      status: 'loading',
    });
  });

  it('clamps the index into range and ignores an empty list', () => {
    openImagePreview(gallery, 9);
    expect(state().index).toBe(2);
    openImagePreview(gallery, -4);
    expect(state().index).toBe(0);
    resetImagePreview();
    openImagePreview([], 0);
    openImagePreview([''], 0);
    expect(state().open).toBe(false);
  });

  it('copies the list, so the caller mutating it later changes nothing', () => {
    const images = [...gallery];
    openImagePreview(images, 0);
    images.push('https://img.example/d.jpg');
    expect(state().images).toHaveLength(3);
  });
});

describe('previous and next', () => {
  it('wrap around both ways', () => {
    openImagePreview(gallery, 2);
    nextImage();
    expect(state().index).toBe(0);
    previousImage();
    expect(state().index).toBe(2);
    previousImage();
    expect(state().index).toBe(1);
    nextImage();
    expect(state().index).toBe(2);
  });

  it('reset zoom, rotation, pan and the load status', () => {
    openImagePreview(gallery, 0);
    zoomIn();
    rotate();
    panBy(30, -10);
    markLoaded(gallery[0]!);
    nextImage();
    expect(state()).toMatchObject({ index: 1, zoom: 1, rotation: 0, pan: { x: 0, y: 0 }, status: 'loading' });
  });

  it('do nothing for a single image', () => {
    openImagePreview([gallery[0]!], 0);
    markLoaded(gallery[0]!);
    zoomIn();
    nextImage();
    previousImage();
    expect(state()).toMatchObject({ index: 0, zoom: 1.15, status: 'loaded' });
  });

  it('shows the counter as n / total', () => {
    expect(counterText(1, 5)).toBe('2 / 5');
    expect(counterText(0, 3)).toBe('1 / 3');
  });
});

describe('zoom', () => {
  beforeEach(() => openImagePreview(gallery, 0));

  it('steps by 0.15 without float drift', () => {
    zoomIn();
    expect(state().zoom).toBe(1.15);
    zoomIn();
    expect(state().zoom).toBe(1.3);
    repeat(3, zoomIn);
    expect(state().zoom).toBe(1.75);
    repeat(5, zoomOut);
    expect(state().zoom).toBe(1);
    zoomOut();
    expect(state().zoom).toBe(0.85);
    expect(ZOOM_STEP).toBe(0.15);
  });

  it('stops at 3 going up and at 0.5 going down', () => {
    repeat(50, zoomIn);
    expect(state().zoom).toBe(MAX_ZOOM);
    expect(MAX_ZOOM).toBe(3);
    repeat(50, zoomOut);
    expect(state().zoom).toBe(MIN_ZOOM);
    expect(MIN_ZOOM).toBe(0.5);
  });

  it('reaches 3 exactly from 1 in steps: …2.8, 2.95, 3', () => {
    repeat(13, zoomIn);
    expect(state().zoom).toBe(2.95);
    zoomIn();
    expect(state().zoom).toBe(3);
  });

  it('setZoom clamps and rounds to 2 decimals', () => {
    setZoom(10);
    expect(state().zoom).toBe(3);
    setZoom(0.1);
    expect(state().zoom).toBe(0.5);
    setZoom(1.23456);
    expect(state().zoom).toBe(1.23);
    expect(clampZoom(Number.NaN)).toBe(1);
  });

  it('double tap toggles between 1 and 2, and back to 1 re-centres the image', () => {
    toggleZoom();
    expect(state().zoom).toBe(2);
    panBy(40, 40);
    toggleZoom();
    expect(state()).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 } });
    setZoom(1.6);
    toggleZoom();
    expect(state().zoom).toBe(1);
  });

  it('pinch scales the start zoom by the finger spread, clamped', () => {
    expect(pinchZoom(1, 100, 150)).toBe(1.5);
    expect(pinchZoom(2, 100, 50)).toBe(1);
    expect(pinchZoom(1, 100, 1000)).toBe(3);
    expect(pinchZoom(1, 100, 10)).toBe(0.5);
    expect(pinchZoom(1.2, 0, 80)).toBe(1.2);
  });

  it('the wheel zooms in going up and out going down, one step per event', () => {
    expect(wheelAction(-120)).toBe('zoomIn');
    expect(wheelAction(-1)).toBe('zoomIn');
    expect(wheelAction(3)).toBe('zoomOut');
    expect(wheelAction(0)).toBeNull();
  });
});

describe('rotate, pan and reset', () => {
  beforeEach(() => openImagePreview(gallery, 0));

  it('rotates 90° a turn, always forwards', () => {
    repeat(5, rotate);
    expect(state().rotation).toBe(450);
  });

  it('pans by deltas and to a position', () => {
    panBy(10, 20);
    panBy(-4, 5);
    expect(state().pan).toEqual({ x: 6, y: 25 });
    setPan({ x: -50, y: 7 });
    expect(state().pan).toEqual({ x: -50, y: 7 });
  });

  it('resets zoom and pan, and turns upright by the shortest way', () => {
    zoomIn();
    panBy(10, 10);
    rotate();
    resetTransform();
    expect(state()).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 }, rotation: 0 });
    repeat(3, rotate);
    resetTransform();
    // 270° goes forward to 360° (upright) rather than spinning back three quarters.
    expect(state().rotation).toBe(360);
    expect(state().rotation % 360).toBe(0);
  });

  it('builds the CSS transform as translate, scale, rotate', () => {
    expect(imageTransform({ pan: { x: 12, y: -3 }, zoom: 1.5, rotation: 90 })).toBe(
      'translate(12px, -3px) scale(1.5) rotate(90deg)',
    );
  });
});

describe('load status', () => {
  it('marks the current image loaded or failed, ignoring events from another image', () => {
    openImagePreview(gallery, 0);
    markLoaded(gallery[1]!);
    expect(state().status).toBe('loading');
    markLoaded(gallery[0]!);
    expect(state().status).toBe('loaded');
    nextImage();
    markFailed(gallery[1]!);
    expect(state().status).toBe('error');
  });
});

describe('closing', () => {
  it('keeps everything for the 300 ms animation, then resets the transform and clears the images', () => {
    openImagePreview(gallery, 1);
    zoomIn();
    rotate();
    panBy(5, 5);
    closeImagePreview();
    expect(state()).toMatchObject({ open: true, closing: true, zoom: 1.15, rotation: 90, images: gallery });
    vi.advanceTimersByTime(CLOSE_ANIMATION_MS - 1);
    expect(state()).toMatchObject({ open: true, closing: true, zoom: 1.15 });
    vi.advanceTimersByTime(1);
    expect(state()).toEqual({
      open: false,
      closing: false,
      images: [],
      index: 0,
      zoom: 1,
      rotation: 0,
      pan: { x: 0, y: 0 },
      status: 'loading',
    });
    expect(CLOSE_ANIMATION_MS).toBe(300);
  });

  it('ignores actions while closing, and a second close does not restart the timer', () => {
    openImagePreview(gallery, 0);
    closeImagePreview();
    vi.advanceTimersByTime(200);
    zoomIn();
    nextImage();
    closeImagePreview();
    expect(state()).toMatchObject({ zoom: 1, index: 0 });
    vi.advanceTimersByTime(100);
    expect(state().open).toBe(false);
  });

  it('opening again during the animation cancels the pending reset', () => {
    openImagePreview(gallery, 0);
    closeImagePreview();
    vi.advanceTimersByTime(150);
    openImagePreview(gallery, 2);
    vi.advanceTimersByTime(CLOSE_ANIMATION_MS);
    expect(state()).toMatchObject({ open: true, closing: false, index: 2 });
  });

  it('closing when already closed does nothing', () => {
    closeImagePreview();
    expect(state().closing).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('keys', () => {
  it.each([
    ['Escape', 'close'],
    ['+', 'zoomIn'],
    ['=', 'zoomIn'],
    ['-', 'zoomOut'],
    ['r', 'rotate'],
    ['R', 'rotate'],
    [' ', 'reset'],
    ['ArrowLeft', 'previous'],
    ['ArrowRight', 'next'],
  ] as const)('%j → %s', (key, action) => {
    expect(keyAction(key)).toBe(action);
  });

  it.each(['Enter', 'Tab', 'a', 'ArrowUp', 'toString', 'constructor'])('%j does nothing', (key) => {
    expect(keyAction(key)).toBeNull();
  });

  it('runs the action a key maps to', () => {
    openImagePreview(gallery, 0);
    runPreviewAction('next');
    runPreviewAction('zoomIn');
    runPreviewAction('rotate');
    expect(state()).toMatchObject({ index: 1, zoom: 1.15, rotation: 90 });
    runPreviewAction('reset');
    expect(state()).toMatchObject({ zoom: 1, rotation: 0 });
    runPreviewAction('zoomOut');
    expect(state().zoom).toBe(0.85);
    runPreviewAction('previous');
    expect(state().index).toBe(0);
    runPreviewAction('close');
    expect(state().closing).toBe(true);
  });
});

describe('touch', () => {
  it('a second tap within 300 ms is a double tap', () => {
    expect(DOUBLE_TAP_MS).toBe(300);
    expect(isDoubleTap(null, 1000)).toBe(false);
    expect(isDoubleTap(1000, 1200)).toBe(true);
    expect(isDoubleTap(1000, 1000 + DOUBLE_TAP_MS)).toBe(true);
    expect(isDoubleTap(1000, 1000 + DOUBLE_TAP_MS + 1)).toBe(false);
    expect(isDoubleTap(1000, 900)).toBe(false);
  });

  it('a touch that barely moves is a tap', () => {
    expect(isTapMovement(0, 0)).toBe(true);
    expect(isTapMovement(6, 6)).toBe(true);
    expect(isTapMovement(12, 0)).toBe(false);
  });
});

/** A fake element: attributes only, enough for the pure DOM helpers. */
function el(attrs: Record<string, string>, tagName = 'IMG', parent: TriggerNode | null = null): TriggerNode {
  const node: TriggerNode = {
    tagName,
    getAttribute: (name) => attrs[name] ?? null,
    closest: (selector) => {
      if (selector !== '[data-preview-src]') throw new Error(`unexpected selector ${selector}`);
      return 'data-preview-src' in attrs ? node : (parent?.closest(selector) ?? null);
    },
  };
  return node;
}

describe('collectGroup', () => {
  const a1 = el({ 'data-preview-src': 'a1.jpg', 'data-preview-group': 'post-1' });
  const lone = el({ 'data-preview-src': 'lone.jpg' });
  const b1 = el({ 'data-preview-src': 'b1.jpg', 'data-preview-group': 'post-2' });
  const a2 = el({ 'data-preview-src': 'a2.jpg', 'data-preview-group': 'post-1' });
  const blank = el({ 'data-preview-src': '', 'data-preview-group': 'post-1' });
  const a3 = el({ 'data-preview-src': 'a1.jpg', 'data-preview-group': 'post-1' });
  const page: PreviewNode[] = [a1, lone, b1, a2, blank, a3];

  it('gathers the same group in DOM order and finds the clicked one by identity', () => {
    expect(collectGroup(a2, page)).toEqual({ images: ['a1.jpg', 'a2.jpg', 'a1.jpg'], index: 1 });
    expect(collectGroup(a3, page)).toEqual({ images: ['a1.jpg', 'a2.jpg', 'a1.jpg'], index: 2 });
    expect(collectGroup(b1, page)).toEqual({ images: ['b1.jpg'], index: 0 });
  });

  it('without a group attribute, is a gallery of one', () => {
    expect(collectGroup(lone, page)).toEqual({ images: ['lone.jpg'], index: 0 });
  });

  it('falls back to the element alone if it is not among the candidates, and to nothing without a src', () => {
    const stray = el({ 'data-preview-src': 'x.jpg', 'data-preview-group': 'post-1' });
    expect(collectGroup(stray, page)).toEqual({ images: ['x.jpg'], index: 0 });
    expect(collectGroup(blank, page)).toEqual({ images: [], index: 0 });
  });
});

function click(target: unknown, patch: Partial<TriggerClick> = {}): TriggerClick {
  return {
    target,
    button: 0,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    defaultPrevented: false,
    preventDefault: vi.fn(),
    ...patch,
  };
}

function keydown(target: unknown, key: string, patch: Partial<TriggerKey> = {}): TriggerKey {
  return {
    target,
    key,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    defaultPrevented: false,
    preventDefault: vi.fn(),
    ...patch,
  };
}

describe('delegated triggers', () => {
  const first = el({ 'data-preview-src': 'one.jpg', 'data-preview-group': 'g' });
  const second = el({ 'data-preview-src': 'two.jpg', 'data-preview-group': 'g' }, 'A');
  const inner = el({}, 'SPAN', second);
  const plain = el({}, 'P');
  const candidates = () => [first, second];

  it('a click on a previewable element, or inside one, opens its gallery and cancels the default', () => {
    const event = click(inner);
    expect(handleTriggerClick(event, candidates)).toBe(true);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(state()).toMatchObject({ open: true, images: ['one.jpg', 'two.jpg'], index: 1 });
  });

  it('ignores other clicks: elsewhere, modified, not the main button, already handled, not an element', () => {
    for (const event of [
      click(plain),
      click(first, { ctrlKey: true }),
      click(first, { metaKey: true }),
      click(first, { shiftKey: true }),
      click(first, { button: 1 }),
      click(first, { defaultPrevented: true }),
      click(null),
      click({}),
    ]) {
      expect(handleTriggerClick(event, candidates)).toBe(false);
      expect(event.preventDefault).not.toHaveBeenCalled();
    }
    expect(state().open).toBe(false);
  });

  it('Enter or Space on a focused previewable element opens it', () => {
    const space = keydown(first, ' ');
    expect(handleTriggerKey(space, candidates)).toBe(true);
    expect(space.preventDefault).toHaveBeenCalled();
    expect(state()).toMatchObject({ open: true, index: 0 });
    resetImagePreview();
    expect(handleTriggerKey(keydown(first, 'Enter'), candidates)).toBe(true);
  });

  it('leaves keys the browser turns into clicks to the click listener', () => {
    const button = el({ 'data-preview-src': 'b.jpg' }, 'BUTTON');
    const link = el({ 'data-preview-src': 'l.jpg', href: '/full/l.jpg' }, 'A');
    expect(handleTriggerKey(keydown(button, 'Enter'), candidates)).toBe(false);
    expect(handleTriggerKey(keydown(button, ' '), candidates)).toBe(false);
    expect(handleTriggerKey(keydown(link, 'Enter'), candidates)).toBe(false);
    // Space does not follow a link, so it opens the preview.
    expect(handleTriggerKey(keydown(link, ' '), candidates)).toBe(true);
  });

  it('ignores other keys, modified keys, and focus inside (not on) a previewable element', () => {
    expect(handleTriggerKey(keydown(first, 'a'), candidates)).toBe(false);
    expect(handleTriggerKey(keydown(first, 'Enter', { ctrlKey: true }), candidates)).toBe(false);
    expect(handleTriggerKey(keydown(first, 'Enter', { defaultPrevented: true }), candidates)).toBe(false);
    expect(handleTriggerKey(keydown(inner, 'Enter'), candidates)).toBe(false);
    expect(state().open).toBe(false);
  });
});

describe('installPreviewTriggers', () => {
  function fakeHost(nodes: PreviewNode[] = []) {
    const listeners = new Map<string, (event: Event) => void>();
    const host: TriggerHost = {
      addEventListener: vi.fn((type: string, listener: (event: Event) => void) => {
        listeners.set(type, listener);
      }),
      removeEventListener: vi.fn((type: string) => {
        listeners.delete(type);
      }),
      querySelectorAll: vi.fn(() => nodes),
    };
    return { host, listeners };
  }

  it('installs one set of listeners however many times the island mounts, and removes them with the last', () => {
    const { host, listeners } = fakeHost();
    const releaseA = installPreviewTriggers(host);
    const releaseB = installPreviewTriggers(host);
    expect(host.addEventListener).toHaveBeenCalledTimes(3);
    expect([...listeners.keys()].sort()).toEqual(['astro:before-preparation', 'click', 'keydown']);
    releaseA();
    releaseA();
    expect(host.removeEventListener).not.toHaveBeenCalled();
    releaseB();
    expect(host.removeEventListener).toHaveBeenCalledTimes(3);
    expect(listeners.size).toBe(0);
    const releaseC = installPreviewTriggers(host);
    expect(host.addEventListener).toHaveBeenCalledTimes(6);
    releaseC();
  });

  it('opens from a click on the document and closes at once on a client-side navigation', () => {
    const target = el({ 'data-preview-src': 'p.jpg', 'data-preview-group': 'g' });
    const other = el({ 'data-preview-src': 'q.jpg', 'data-preview-group': 'g' });
    const { host, listeners } = fakeHost([other, target]);
    const release = installPreviewTriggers(host);
    listeners.get('click')?.(click(target) as unknown as Event);
    expect(host.querySelectorAll).toHaveBeenCalledWith('[data-preview-src]');
    expect(state()).toMatchObject({ open: true, images: ['q.jpg', 'p.jpg'], index: 1 });
    listeners.get('astro:before-preparation')?.(new Event('astro:before-preparation'));
    expect(state().open).toBe(false);
    release();
  });
});

describe('download', () => {
  const src = 'https://img.example/2024/%E5%B0%81%E9%9D%A2.png?w=800';

  function deps(fetchImpl: DownloadDeps['fetch']) {
    return { fetch: vi.fn(fetchImpl), saveBlob: vi.fn(), openInNewTab: vi.fn() };
  }

  it('saves the blob from the download proxy, named after the last path segment', async () => {
    const blob = new Blob(['png']);
    const d = deps(async () => ({ ok: true, blob: async () => blob }));
    await expect(downloadImage(src, d)).resolves.toBe('saved');
    expect(d.fetch).toHaveBeenCalledWith(`/api/image/download?url=${encodeURIComponent(src)}`);
    expect(d.saveBlob).toHaveBeenCalledWith(blob, '封面.png');
    expect(d.openInNewTab).not.toHaveBeenCalled();
  });

  it('opens the original in a new tab when the proxy answers non-2xx', async () => {
    const d = deps(async () => ({ ok: false, blob: async () => new Blob([]) }));
    await expect(downloadImage(src, d)).resolves.toBe('opened');
    expect(d.saveBlob).not.toHaveBeenCalled();
    expect(d.openInNewTab).toHaveBeenCalledWith(src);
  });

  it('opens the original in a new tab when the fetch or the body fails', async () => {
    const offline = deps(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(downloadImage(src, offline)).resolves.toBe('opened');
    expect(offline.openInNewTab).toHaveBeenCalledWith(src);

    const broken = deps(async () => ({
      ok: true,
      blob: async () => {
        throw new Error('aborted');
      },
    }));
    await expect(downloadImage(src, broken)).resolves.toBe('opened');
    expect(broken.saveBlob).not.toHaveBeenCalled();
    expect(broken.openInNewTab).toHaveBeenCalledWith(src);
  });

  it('encodes the whole URL into the proxy query', async () => {
    await expect(downloadProxyUrl('https://a.example/x.jpg?a=1&b=2')).resolves.toBe(
      '/api/image/download?url=https%3A%2F%2Fa.example%2Fx.jpg%3Fa%3D1%26b%3D2',
    );
  });

  it.each([
    ['https://img.example/covers/kanon.webp', 'kanon.webp'],
    ['https://img.example/covers/kanon.webp?x=1#top', 'kanon.webp'],
    ['https://img.example/dir/', 'dir'],
    ['https://img.example/', 'image'],
    ['/uploads/shot.jpg', 'shot.jpg'],
    ['https://img.example/bad%E0%A4.png', 'bad%E0%A4.png'],
    ['data:image/png;base64,iVBORw0KGgo=', 'image'],
  ])('names %s as %s', (url, name) => {
    expect(imageFileName(url)).toBe(name);
  });
});
