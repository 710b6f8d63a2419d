/** The parts of foliate-js (plain JavaScript, no types of its own) the reader uses. */
declare module 'foliate-js/view.js' {
  export interface FoliateTocItem {
    label?: string;
    href?: string;
    subitems?: FoliateTocItem[];
  }
  export interface FoliateDataEvent {
    detail: { data: unknown; type: string; readonly name: string };
  }
  export interface FoliateBook {
    dir?: string;
    toc?: FoliateTocItem[];
    metadata?: { title?: unknown; language?: unknown };
    sections: unknown[];
    transformTarget?: EventTarget;
  }
  export interface FoliateLocation {
    fraction?: number;
    cfi?: string;
    tocItem?: { label?: string; href?: string } | null;
  }
  export interface FoliateRenderer extends HTMLElement {
    setStyles?(css: string): void;
    next(): Promise<void>;
    prev(): Promise<void>;
  }
  export interface FoliateView extends HTMLElement {
    book: FoliateBook;
    renderer: FoliateRenderer;
    lastLocation?: FoliateLocation;
    open(book: FoliateBook): Promise<void>;
    init(options: { lastLocation?: string | null; showTextStart?: boolean }): Promise<void>;
    goTo(target: string): Promise<unknown>;
    goToFraction(fraction: number): Promise<void>;
    next(): Promise<void>;
    prev(): Promise<void>;
    close(): void;
  }
  export function makeBook(file: File | Blob | string): Promise<FoliateBook>;
}
