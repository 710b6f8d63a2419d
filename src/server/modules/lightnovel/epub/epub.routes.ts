import { Readable } from 'node:stream';
import { epubContract, EPUB_CONTENT_TYPE } from '../../../../shared/lightnovel/epub.contract.ts';
import type { AppContext } from '../../../context.ts';
import { contractRoutes } from '../../../http/contract-route.ts';
import { etagMatches } from '../../../http/page-cache-policy.ts';
import type { UserRow } from '../../users/users.tables.ts';
import { epubEtag, openVolumeEpub } from './epub.service.ts';

const viewerOf = (user: UserRow | null) => (user ? { id: user.id, group: user.user_group } : null);

/**
 * How long a browser keeps a volume's EPUB before asking again. The address stays the same when the
 * file is replaced, so it is not immutable; the ETag (the file's sha256) makes asking again cheap.
 */
const EPUB_CACHE_CONTROL = 'private, max-age=300';

/** GET, POST and DELETE /api/lightnovel/volumes/{id}/epub: a volume's EPUB file. */
export function epubRoutes(ctx: AppContext) {
  return contractRoutes(ctx, epubContract, {
    epubFile: async (c, { params, user }) => {
      const { key, object } = await openVolumeEpub(ctx, Number(params.id), viewerOf(user));
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
  });
}
