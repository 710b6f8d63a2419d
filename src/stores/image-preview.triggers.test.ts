import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $imagePreview,
  collectGroup,
  handleTriggerClick,
  handleTriggerKey,
  installPreviewTriggers,
  resetImagePreview,
  type PreviewNode,
  type TriggerClick,
  type TriggerHost,
  type TriggerKey,
  type TriggerNode,
} from './image-preview.ts';
import { downloadImage, downloadProxyUrl, imageFileName, type DownloadDeps } from './image-preview-actions.ts';

// The preview's DOM side: trigger elements and groups, delegated clicks and keys, and downloads.

const state = () => $imagePreview.get();

beforeEach(() => {
  vi.useFakeTimers();
  resetImagePreview();
});
afterEach(() => {
  resetImagePreview();
  vi.useRealTimers();
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
