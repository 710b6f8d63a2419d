import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $imagePreview,
  CLOSE_ANIMATION_MS,
  DOUBLE_TAP_MS,
  MAX_ZOOM,
  MIN_ZOOM,
  ZOOM_STEP,
  closeImagePreview,
  openImagePreview,
  resetImagePreview,
} from './image-preview.ts';
import {
  clampZoom,
  counterText,
  imageTransform,
  isDoubleTap,
  isTapMovement,
  keyAction,
  markFailed,
  markLoaded,
  nextImage,
  panBy,
  pinchZoom,
  previousImage,
  resetTransform,
  rotate,
  runPreviewAction,
  setPan,
  setZoom,
  toggleZoom,
  wheelAction,
  zoomIn,
  zoomOut,
} from './image-preview-actions.ts';

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
