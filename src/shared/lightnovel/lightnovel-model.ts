/**
 * Light novels without any validation library, so islands that only need values, paths and types
 * stay small: series (a light novel), its volumes, and what a member reads.
 */

export const SERIAL_STATUSES = ['serialising', 'finished', 'paused', 'abandoned'] as const;
export type SerialStatus = (typeof SERIAL_STATUSES)[number];

export const VOLUME_KINDS = ['main', 'extra'] as const;
export type VolumeKind = (typeof VOLUME_KINDS)[number];

export const LIGHTNOVEL_STAFF_ROLES = ['author', 'illustrator'] as const;
export type LightnovelStaffRole = (typeof LIGHTNOVEL_STAFF_ROLES)[number];

/** A publisher, or the label (bunko, 文库) it prints the series under; both are producers. */
export const LIGHTNOVEL_PRODUCER_ROLES = ['publisher', 'label'] as const;
export type LightnovelProducerRole = (typeof LIGHTNOVEL_PRODUCER_ROLES)[number];

/** What the server learnt from a volume's EPUB when it was uploaded. */
export interface EpubMeta {
  title?: string;
  /** BCP 47 language of the book (`zh`, `ja`…). */
  language?: string;
  /** The book asks for vertical writing (top to bottom, columns right to left). */
  vertical?: boolean;
  /** Pages turn right to left (`page-progression-direction="rtl"`). */
  rtl?: boolean;
}

/** Progress is kept as hundredths of a per cent, 0…10000. */
export const PROGRESS_SCALE = 10000;

/** Largest EPUB a volume takes, in bytes. */
export const EPUB_MAX_BYTES = 50 * 1024 * 1024;

/** Longest text of a series' rating, in characters: a short comment beside the score. */
export const LIGHTNOVEL_RATING_TEXT_MAX = 500;

/** The one content type an EPUB is uploaded and served with. */
export const EPUB_CONTENT_TYPE = 'application/epub+zip';

/** Where a volume's EPUB is read, uploaded and removed (GET, POST, DELETE). */
export const epubFilePath = (volumeId: number) => `/api/lightnovel/volumes/${volumeId}/epub`;
