import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { decimalId } from '../input-rules.ts';
import { EPUB_CONTENT_TYPE, EPUB_MAX_BYTES, epubFilePath, type EpubMeta } from './lightnovel-model.ts';

/**
 * Why an EPUB was refused, in `data.reason` of a 422 answer (the message says it in words). Stable:
 * clients may branch on them.
 */
export const EPUB_PROBLEMS = [
  'EPUB_EMPTY',
  'EPUB_NOT_ZIP',
  'EPUB_UNSAFE_NAME',
  'EPUB_DUPLICATE_ENTRY',
  'EPUB_TOO_MANY_ENTRIES',
  'EPUB_ENTRY_TOO_LARGE',
  'EPUB_TOO_LARGE_UNPACKED',
  'EPUB_COMPRESSION_RATIO',
  'EPUB_SIZE_MISMATCH',
  'EPUB_ENCRYPTED',
  'EPUB_MIMETYPE',
  'EPUB_CONTAINER',
  'EPUB_OPF_MISSING',
  'EPUB_OPF_INVALID',
  'EPUB_SPINE_ITEM_MISSING',
  'EPUB_SCRIPT',
  'EPUB_EVENT_HANDLER',
  'EPUB_JAVASCRIPT_URL',
  'EPUB_REMOTE_RESOURCE',
  'EPUB_DTD_DECLARATION',
] as const;
export type EpubProblem = (typeof EPUB_PROBLEMS)[number];

/** `data` of a 422 answer about a refused EPUB. */
export interface EpubRefusal {
  issues: { path: 'file'; message: string }[];
  reason: EpubProblem;
}

export { EPUB_CONTENT_TYPE, epubFilePath };

/** A volume's EPUB as the upload control shows it. */
export interface VolumeEpub {
  volumeId: number;
  /** null when the volume has no EPUB. */
  epub: { size: number; meta: EpubMeta; url: string } | null;
  /** The volume's cover (set from the EPUB when the volume had none). */
  cover: string;
}

/**
 * The one API route whose body is a file rather than JSON: the API's JSON-only rule and its 1 MB body
 * limit step aside for it (its handler checks the type and streams the body with its own cap), while
 * the cross-site check still applies.
 */
export const EPUB_UPLOAD_ROUTE = {
  method: 'POST',
  path: /^\/api\/lightnovel\/volumes\/[1-9]\d*\/epub$/,
  contentType: EPUB_CONTENT_TYPE,
  maxBytes: EPUB_MAX_BYTES,
} as const;

const volumeParams = z.object({ id: decimalId() });

/** A volume's EPUB file: read it, upload or replace it, remove it. */
export const epubContract = {
  epubFile: endpoint({
    method: 'GET',
    path: '/lightnovel/volumes/:id/epub',
    params: volumeParams,
    // The answer is the EPUB itself (application/epub+zip), not the JSON envelope.
    response: as<Blob>(),
    auth: 'optional',
    summary: "A volume's EPUB file; everyone for published series, their creator and reviewers otherwise",
  }),
  uploadEpub: endpoint({
    method: 'POST',
    path: '/lightnovel/volumes/:id/epub',
    params: volumeParams,
    // The body is the raw file with Content-Type application/epub+zip (read as a stream, not as JSON).
    response: as<VolumeEpub>(),
    auth: 'required',
    summary: `Uploads or replaces a volume's EPUB (raw body, application/epub+zip, at most ${EPUB_MAX_BYTES / 1024 / 1024} MB, validated); creators and above`,
  }),
  removeEpub: endpoint({
    method: 'DELETE',
    path: '/lightnovel/volumes/:id/epub',
    params: volumeParams,
    response: as<VolumeEpub>(),
    auth: 'required',
    summary: "Removes a volume's EPUB; creators and above",
  }),
} as const;
