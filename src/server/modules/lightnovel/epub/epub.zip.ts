import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { formatBytes } from '../../../platform/storage/storage.ts';
import { EpubRejection, refuse, shown } from './epub.rejection.ts';

/** How much an EPUB may hold once unpacked; sizes are counted while inflating, never taken from headers. */
export interface EpubLimits {
  maxEntries: number;
  /** Largest unpacked entry. */
  maxEntryBytes: number;
  /** Largest unpacked text entry (XHTML, CSS, OPF…), which is read into memory to be checked. */
  maxTextBytes: number;
  /** All entries unpacked together. */
  maxTotalBytes: number;
  /** All entries read into memory together to be checked (text, markup, the cover). */
  maxKeptBytes: number;
  /** Unpacked ÷ packed beyond which an entry, or the whole archive, is a zip bomb… */
  maxRatio: number;
  /** …once it has unpacked at least this much (tiny files compress well and harm nobody). */
  ratioFloorBytes: number;
}

export const EPUB_LIMITS: EpubLimits = {
  maxEntries: 5000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTextBytes: 8 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxKeptBytes: 32 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

/** Null when an entry name is safe to unpack anywhere; the reason otherwise. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0 || name.length > 1024) return 'length';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control character';
  if (name.includes('\\')) return 'backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute path';
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return 'dot segment';
  return null;
}

export interface ZipListing {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

/** Maps what yauzl says about a broken archive to our codes: sizes that disagree, or not a zip at all. */
export function zipProblem(error: unknown): EpubRejection {
  if (error instanceof EpubRejection) return error;
  const message = error instanceof Error ? error.message : '';
  if (/size mismatch|too many bytes|not enough bytes/.test(message))
    return new EpubRejection('EPUB_SIZE_MISMATCH', { name: '?' });
  return new EpubRejection('EPUB_NOT_ZIP');
}

export async function listEntries(path: string, limits: EpubLimits): Promise<ZipListing> {
  const zip = await openZip(path);
  const entries = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > limits.maxEntries) refuse('EPUB_TOO_MANY_ENTRIES', { max: limits.maxEntries });
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          const name = yauzl.getFileNameLowLevel(
            entry.generalPurposeBitFlag,
            entry.fileNameRaw,
            entry.extraFields,
            true,
          );
          if (unsafeEntryName(name)) refuse('EPUB_UNSAFE_NAME', { name: shown(name) });
          if (entries.has(name)) refuse('EPUB_DUPLICATE_ENTRY', { name: shown(name) });
          if (entry.isEncrypted()) refuse('EPUB_ENCRYPTED', { name: shown(name) });
          entries.set(name, entry);
          zip.readEntry();
        } catch (error) {
          reject(error);
        }
      });
      zip.readEntry();
    });
    return { zip, entries };
  } catch (error) {
    zip.close();
    throw zipProblem(error);
  }
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

/**
 * Reads entries, counting the real bytes as they are inflated: an entry past its limit, the total past
 * its limit, the bytes kept in memory past theirs, or a suspicious compression ratio (of the entry or
 * of the whole archive, `archiveBytes` long) stops the inflation at once (a zip bomb never unpacks).
 * Every entry is inflated once, kept in memory only when asked.
 */
export function entryReader(listing: ZipListing, limits: EpubLimits, archiveBytes: number) {
  let total = 0;
  let keptTotal = 0;
  const done = new Set<string>();
  return {
    done,
    async read(name: string, keep: boolean, cap: number): Promise<Buffer | null> {
      const entry = listing.entries.get(name);
      if (!entry || done.has(name)) return null;
      done.add(name);
      if (entry.uncompressedSize > cap) refuse('EPUB_ENTRY_TOO_LARGE', { name: shown(name), max: formatBytes(cap) });
      const stream = await openEntry(listing.zip, entry).catch((error: unknown) => {
        throw zipProblem(error);
      });
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          total += chunk.length;
          if (size > cap) refuse('EPUB_ENTRY_TOO_LARGE', { name: shown(name), max: formatBytes(cap) });
          if (total > limits.maxTotalBytes) {
            refuse('EPUB_TOO_LARGE_UNPACKED', { max: formatBytes(limits.maxTotalBytes) });
          }
          if (size > limits.ratioFloorBytes && size > Math.max(1, entry.compressedSize) * limits.maxRatio) {
            refuse('EPUB_COMPRESSION_RATIO', { name: shown(name) });
          }
          // Many entries each under the floor add up: the archive as a whole has the same limit.
          if (total > limits.ratioFloorBytes && total > Math.max(1, archiveBytes) * limits.maxRatio) {
            refuse('EPUB_COMPRESSION_RATIO', { name: shown(name) });
          }
          if (keep) {
            keptTotal += chunk.length;
            if (keptTotal > limits.maxKeptBytes) {
              refuse('EPUB_TOO_LARGE_UNPACKED', { max: formatBytes(limits.maxKeptBytes) });
            }
            chunks.push(chunk);
          }
        }
      } catch (error) {
        stream.destroy();
        if (error instanceof EpubRejection) throw error;
        const message = error instanceof Error ? error.message : '';
        if (/too many bytes|not enough bytes/.test(message)) refuse('EPUB_SIZE_MISMATCH', { name: shown(name) });
        throw zipProblem(error);
      }
      return keep ? Buffer.concat(chunks) : null;
    },
  };
}
