import { parseMarkers } from '../../../shared/comment-markers.ts';
import { messageRef, type MessageRef } from '../../../shared/i18n/index.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { contentTypeForKey, StorageError, type Storage } from '../../platform/storage/storage.ts';
import { confirmStoredImage } from '../media/stored-image.ts';

/** Folders POST /api/upload makes for `type: 'comment'` (`comment/{id}/…`) and the file names it chooses. */
const UPLOAD_FOLDER = /^comment\/[A-Za-z0-9_-]{1,64}\/$/;
const IMAGE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Where our image bed starts (origin and path), as the storage writes public addresses. */
function imageBed(storage: Pick<Storage, 'publicUrl'>): URL {
  const probe = 'comment/x';
  return new URL(storage.publicUrl(probe).slice(0, -probe.length));
}

/**
 * What an `[img]` address is: another site's image (`external`), an image uploaded for comments (its
 * storage key), or an address of our image bed that is not one (`foreign`: another kind's folder, dot
 * segments, a query…). Addresses are compared parsed, so another spelling of our host is still ours.
 */
export function commentImageKey(
  storage: Pick<Storage, 'publicUrl'>,
  url: string,
): { kind: 'external' } | { kind: 'ours'; key: string } | { kind: 'foreign' } {
  const bed = imageBed(storage);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'external' };
  }
  if (parsed.origin !== bed.origin || !parsed.pathname.startsWith(bed.pathname)) return { kind: 'external' };
  const rest = parsed.pathname.slice(bed.pathname.length);
  const slash = rest.lastIndexOf('/');
  const folder = rest.slice(0, slash + 1);
  const file = rest.slice(slash + 1);
  if (!UPLOAD_FOLDER.test(folder) || !IMAGE_FILE.test(file)) return { kind: 'foreign' };
  const key = `${folder}${file}`;
  if (!contentTypeForKey(key)?.startsWith('image/')) return { kind: 'foreign' };
  return storage.publicUrl(key) === url ? { kind: 'ours', key } : { kind: 'foreign' };
}

/**
 * Every `[img]` of our image bed in a comment must be an image uploaded for comments, and pass the
 * stored-image check (the first use of an S3 upload is where it gets checked and cleaned). Other sites'
 * images are left as they are (the markers only take http and https addresses).
 */
export async function checkCommentImages(storage: Storage, content: string): Promise<void> {
  const images = parseMarkers(content).flatMap((token) => (token.type === 'image' ? [token] : []));
  const checked = new Set<string>();
  for (const image of images) {
    const found = commentImageKey(storage, image.url);
    if (found.kind === 'external') continue;
    if (found.kind === 'foreign') {
      const message = messageRef('server.comments.imageNotOurs', { index: image.index });
      throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue('content', message));
    }
    if (checked.has(found.key)) continue;
    try {
      await confirmStoredImage(storage, found.key);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      const message =
        error.code === 'UPLOAD_INCOMPLETE'
          ? messageRef('server.comments.imageNotUploaded', { index: image.index })
          : (error.message as MessageRef);
      throw new HttpError(error.status, error.code, message, fieldIssue('content', message));
    }
    checked.add(found.key);
  }
}
