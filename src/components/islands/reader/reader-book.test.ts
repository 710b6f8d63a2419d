import { afterEach, describe, expect, it, vi } from 'vitest';
import { openBook } from './reader-book.ts';

vi.mock('foliate-js/view.js', () => ({
  makeBook: async () => ({ sections: [], transformTarget: new EventTarget() }),
}));

/** Just enough of a page for openBook: a host that keeps its children, views whose `open` fails. */
function fakePage() {
  const children: FakeView[] = [];
  class FakeView {
    style: Record<string, string> = {};
    setAttribute() {}
    remove() {
      const at = children.indexOf(this);
      if (at >= 0) children.splice(at, 1);
    }
    open(): Promise<void> {
      return Promise.reject(new Error('not a book'));
    }
  }
  vi.stubGlobal('document', { createElement: () => new FakeView() });
  const host = { append: (view: FakeView) => children.push(view) } as unknown as HTMLElement;
  return { host, children };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('opening a book', () => {
  it('takes its view away again when the book cannot be opened, so retries do not stack views', async () => {
    const { host, children } = fakePage();
    const file = new File([new Uint8Array([1])], 'v.epub');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(openBook(file, host)).rejects.toThrow('not a book');
      expect(children).toHaveLength(0);
    }
  });
});
