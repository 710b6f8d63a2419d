import * as Dialog from '@radix-ui/react-dialog';
import {
  useCallback,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { useT } from '../ui/use-t.ts';
import {
  $imagePreview,
  MAX_ZOOM,
  MIN_ZOOM,
  closeImagePreview,
  type ImagePreviewState,
  type Pan,
} from '../../../stores/image-preview.ts';
import {
  counterText,
  downloadImage,
  imageTransform,
  isDoubleTap,
  isTapMovement,
  keyAction,
  markFailed,
  markLoaded,
  nextImage,
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
} from '../../../stores/image-preview-actions.ts';

/** FileSaver.js waits this long: revoking the object URL sooner can cancel the download in some browsers. */
const REVOKE_OBJECT_URL_MS = 40_000;

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_OBJECT_URL_MS);
}

const downloadDeps = {
  fetch: (url: string) => fetch(url),
  saveBlob,
  openInNewTab: (url: string) => {
    window.open(url, '_blank', 'noopener,noreferrer');
  },
};

type Gesture =
  | { kind: 'pan'; pointerId: number; startX: number; startY: number; startPan: Pan }
  | { kind: 'pinch'; startDistance: number; startZoom: number }
  | null;

interface Point {
  x: number;
  y: number;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The image preview overlay (spec §2.8), opened by any element with `data-preview-src` or by
 * `openImagePreview`; loaded on first use. All state lives in the image-preview store.
 */
export function ImagePreviewDialog({ state }: { state: ImagePreviewState }) {
  const t = useT();
  const contentRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>(null);
  const tap = useRef<{ downX: number; downY: number; multi: boolean } | null>(null);
  const lastTap = useRef<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const total = state.images.length;
  const src = state.images[state.index] ?? '';
  const closing = state.closing;

  // React's onWheel is passive, so preventDefault needs a listener of our own.
  const stageRef = useCallback((stage: HTMLDivElement | null) => {
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const action = wheelAction(event.deltaY);
      if (action) runPreviewAction(action);
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, []);

  const startPan = (pointerId: number, at: Point) => {
    gesture.current = { kind: 'pan', pointerId, startX: at.x, startY: at.y, startPan: $imagePreview.get().pan };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, at);
    const [a, b] = [...pointers.current.values()];
    if (a && b) {
      gesture.current = { kind: 'pinch', startDistance: distance(a, b), startZoom: $imagePreview.get().zoom };
      tap.current = tap.current && { ...tap.current, multi: true };
    } else {
      startPan(event.pointerId, at);
      tap.current = event.pointerType === 'touch' ? { downX: at.x, downY: at.y, multi: false } : null;
    }
    setDragging(true);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    const at = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, at);
    const g = gesture.current;
    if (g?.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()];
      if (a && b) setZoom(pinchZoom(g.startZoom, g.startDistance, distance(a, b)));
    } else if (g?.kind === 'pan' && g.pointerId === event.pointerId) {
      setPan({ x: g.startPan.x + at.x - g.startX, y: g.startPan.y + at.y - g.startY });
    }
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.delete(event.pointerId)) return;
    const [rest] = [...pointers.current.entries()];
    if (rest) {
      // One finger lifted from a pinch: the other carries on panning from here.
      startPan(rest[0], rest[1]);
      return;
    }
    gesture.current = null;
    setDragging(false);
    const t = tap.current;
    tap.current = null;
    if (event.type !== 'pointerup' || !t || t.multi || !isTapMovement(event.clientX - t.downX, event.clientY - t.downY))
      return;
    if (isDoubleTap(lastTap.current, event.timeStamp)) {
      lastTap.current = null;
      toggleZoom();
    } else {
      lastTap.current = event.timeStamp;
    }
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keyAction(event.key);
    if (!action) return;
    // Also stops Space from scrolling the page or clicking the focused button.
    event.preventDefault();
    runPreviewAction(action);
  };

  const onDownload = () => {
    if (downloading || !src) return;
    setDownloading(true);
    void downloadImage(src, downloadDeps).finally(() => setDownloading(false));
  };

  const anim = closing ? 'closing' : 'open';

  return (
    <Dialog.Root open onOpenChange={(next) => !next && closeImagePreview()}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-state-anim={anim}
          className="hk-fade fixed inset-0 z-[1200] bg-black/85 backdrop-blur-sm"
        />
        <Dialog.Content
          ref={contentRef}
          data-state-anim={anim}
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            // Focus the overlay itself, so Space resets instead of pressing the first button.
            event.preventDefault();
            contentRef.current?.focus();
          }}
          onKeyDown={onKeyDown}
          className={`hk-fade fixed inset-0 z-[1200] text-white outline-none ${closing ? 'pointer-events-none' : ''}`}
        >
          <Dialog.Title className="sr-only">{t('imagePreview.dialogTitle')}</Dialog.Title>

          <div
            ref={stageRef}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerEnd}
            onPointerCancel={onPointerEnd}
            onLostPointerCapture={onPointerEnd}
            className={`absolute inset-0 flex touch-none items-center justify-center overflow-hidden select-none ${dragging ? 'cursor-grabbing' : 'cursor-grab'}`}
          >
            <div
              className={`flex items-center justify-center transition-transform duration-300 ease-in ${closing ? 'scale-90' : ''}`}
            >
              {state.status !== 'error' && (
                <img
                  key={`${state.index}:${src}`}
                  src={src}
                  alt={
                    total > 1
                      ? `${t('imagePreview.dialogTitle')} ${counterText(state.index, total)}`
                      : t('imagePreview.dialogTitle')
                  }
                  draggable={false}
                  onLoad={() => markLoaded(src)}
                  onError={() => markFailed(src)}
                  style={{ transform: imageTransform(state) }}
                  className={`max-h-[85vh] max-w-[90vw] object-contain select-none ${state.status === 'loaded' ? '' : 'opacity-0'} ${dragging ? '' : 'transition-transform duration-200 ease-out'}`}
                />
              )}
            </div>
            {state.status !== 'loaded' && (
              <p
                role={state.status === 'error' ? 'alert' : 'status'}
                className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-zinc-200"
              >
                {state.status === 'error' ? t('imagePreview.failed') : t('imagePreview.loading')}
              </p>
            )}
          </div>

          {total > 1 && (
            <p
              aria-live="polite"
              className="absolute top-4 left-1/2 -translate-x-1/2 rounded-full bg-zinc-900/70 px-3 py-1 text-sm tabular-nums"
            >
              {counterText(state.index, total)}
            </p>
          )}

          <IconButton label={t('imagePreview.close')} onClick={closeImagePreview} className="absolute top-3 right-3">
            <path d="M6 6l12 12M18 6L6 18" />
          </IconButton>

          {total > 1 && (
            <>
              <IconButton
                label={t('imagePreview.previous')}
                onClick={previousImage}
                className="absolute top-1/2 left-2 -translate-y-1/2 sm:left-4"
              >
                <path d="M15 5l-7 7 7 7" />
              </IconButton>
              <IconButton
                label={t('imagePreview.next')}
                onClick={nextImage}
                className="absolute top-1/2 right-2 -translate-y-1/2 sm:right-4"
              >
                <path d="M9 5l7 7-7 7" />
              </IconButton>
            </>
          )}

          <div className="absolute bottom-4 left-1/2 flex -translate-x-1/2 items-center gap-1 rounded-full bg-zinc-900/70 px-2 py-1 shadow-lg backdrop-blur-sm">
            <IconButton label={t('imagePreview.zoomOut')} onClick={zoomOut} disabled={state.zoom <= MIN_ZOOM} plain>
              <circle cx="11" cy="11" r="6.5" />
              <path d="M8 11h6M16 16l4.5 4.5" />
            </IconButton>
            <IconButton label={t('imagePreview.zoomIn')} onClick={zoomIn} disabled={state.zoom >= MAX_ZOOM} plain>
              <circle cx="11" cy="11" r="6.5" />
              <path d="M8 11h6M11 8v6M16 16l4.5 4.5" />
            </IconButton>
            <IconButton label={t('imagePreview.rotate')} onClick={rotate} plain>
              <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" />
              <path d="M19.5 4.5v4.2h-4.2" />
            </IconButton>
            <IconButton label={t('imagePreview.reset')} onClick={resetTransform} plain>
              <path d="M4.5 9V4.5H9M19.5 9V4.5H15M4.5 15v4.5H9M19.5 15v4.5H15" />
            </IconButton>
            <IconButton
              label={t('imagePreview.download')}
              onClick={onDownload}
              disabled={downloading || state.status === 'error'}
              plain
            >
              <path d="M12 4.5v10.5M7.5 10.5 12 15l4.5-4.5M5 19.5h14" />
            </IconButton>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface IconButtonProps {
  label: string;
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
  /** Inside the toolbar pill: no background of its own. */
  plain?: boolean;
  className?: string;
}

/** A 40 px (44 px standalone) touch target with an inline SVG icon, labelled for assistive tech. */
function IconButton({ label, onClick, children, disabled = false, plain = false, className = '' }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className={`flex items-center justify-center rounded-full text-white transition-colors hover:text-accent focus-visible:outline-2 focus-visible:outline-focus disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:text-white ${plain ? 'size-10' : 'size-11 bg-zinc-900/70'} ${className}`}
    >
      <svg
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        {children}
      </svg>
    </button>
  );
}
