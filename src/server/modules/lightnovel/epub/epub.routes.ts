import { join } from 'node:path';
import { Readable } from 'node:stream';
import { epubContract, EPUB_CONTENT_TYPE } from '../../../../shared/lightnovel/epub.contract.ts';
import { EPUB_MAX_BYTES } from '../../../../shared/lightnovel/lightnovel-model.ts';
import type { AppContext } from '../../../context.ts';
import { contractRoutes } from '../../../http/contract-route.ts';
import { etagMatches } from '../../../http/page-cache-policy.ts';
import { HttpError } from '../../../platform/errors.ts';
import { normalizeContentType } from '../../../platform/storage/storage.ts';
import type { UserRow } from '../../users/users.tables.ts';
import { uploadTooLarge, withUploadedFile } from './epub-upload.ts';
import {
  assertMayManageEpubs,
  assertMayUploadTo,
  attachEpub,
  epubEtag,
  openVolumeEpub,
  rejectionError,
  removeEpub,
} from './epub.service.ts';
import { EpubRejection } from './epub.rejection.ts';

const viewerOf = (user: UserRow) => ({ id: user.id, group: user.user_group });

/**
 * How long a browser keeps a volume's EPUB before asking again. The address stays the same when the
 * file is replaced, so it is not immutable; the ETag (the file's sha256) makes asking again cheap.
 */
const EPUB_CACHE_CONTROL = 'private, max-age=300';

/** GET, POST and DELETE /api/lightnovel/volumes/{id}/epub: a volume's EPUB file. */
export function epubRoutes(ctx: AppContext) {
  const uploadDir = join(ctx.config.dataDir, 'tmp');
  return contractRoutes(ctx, epubContract, {
    epubFile: async (c, { params, user }) => {
      const viewer = user ? viewerOf(user) : null;
      const { key, object } = await openVolumeEpub(ctx, Number(params.id), viewer);
      const etag = epubEtag(key);
      c.header('ETag', etag);
      c.header('Cache-Control', EPUB_CACHE_CONTROL);
      c.header('X-Content-Type-Options', 'nosniff');
      if (etagMatches(c.req.header('if-none-match'), etag)) {
        object.body.destroy();
        return c.body(null, 304);
      }
      c.header('Content-Type', EPUB_CONTENT_TYPE);
      c.header('Content-Length', String(object.size));
      c.header('Content-Disposition', 'inline');
      return c.body(Readable.toWeb(object.body) as ReadableStream<Uint8Array>, 200);
    },

    uploadEpub: async (c, { params, user }) => {
      const volumeId = Number(params.id);
      // Everything that can be refused without the body is refused before it is read.
      await assertMayUploadTo(ctx.db, volumeId, viewerOf(user));
      if (normalizeContentType(c.req.header('content-type')) !== EPUB_CONTENT_TYPE) {
        throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'epub.contentType');
      }
      const declared = Number(c.req.header('content-length') ?? NaN);
      if (declared > EPUB_MAX_BYTES) throw uploadTooLarge(EPUB_MAX_BYTES);
      const data = await withUploadedFile(c.req.raw.body, EPUB_MAX_BYTES, uploadDir, async (path, size) => {
        if (size === 0) throw rejectionError(new EpubRejection('EPUB_EMPTY'));
        return attachEpub(ctx, volumeId, path, viewerOf(user));
      });
      return { data, message: 'epub.uploaded' };
    },

    removeEpub: async (_c, { params, user }) => {
      assertMayManageEpubs(user.user_group);
      return { data: await removeEpub(ctx, Number(params.id), viewerOf(user)), message: 'epub.removed' };
    },
  });
}
