import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createMediaFileHandler } from '../../http/static-files.ts';
import { LocalStorage } from '../../platform/storage/storage.local.ts';
import { defineModule, type PathHandler } from '../module.ts';
import { pruneImageCache } from './image-cache.ts';
import { createMediaApp } from './media.app.ts';
import { imageDownloadRoutes } from './media.routes.ts';
import { sanitizeUploadedImage } from './stored-image.ts';

const HOUR = 60 * 60 * 1000;

/** Dot segments never reach the file handler (its own containment check is a prefix match). */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Images: /img (resized and converted variants, cached on disk), the download button's API route,
 * and, with the local storage driver, the files under /media/ and their signed uploads at /media-upload/.
 */
export const mediaModule = defineModule({
  name: 'media',
  api: imageDownloadRoutes,
  paths(ctx) {
    const paths: PathHandler[] = [{ path: '/img', handle: getRequestListener(createMediaApp(ctx).fetch) }];
    const storage = ctx.storage;
    if (storage instanceof LocalStorage) {
      const serve = createMediaFileHandler(storage.dir, (error) =>
        ctx.logger.warn({ err: error }, 'file stream failed'),
      );
      paths.push({
        path: '/media/',
        handle(req, res) {
          const url = req.url ?? '/';
          if (DOT_SEGMENT.test(safeDecode(url.split('?')[0] ?? ''))) {
            res.statusCode = 404;
            res.end('Not Found');
            return;
          }
          req.url = url.slice('/media'.length);
          serve(req, res, () => {
            req.url = url;
            res.statusCode = 404;
            res.end('Not Found');
          });
        },
      });
      paths.push({ path: '/media-upload/', handle: storage.handleSignedPut });
    }
    return paths;
  },
  start(ctx) {
    // Every upload to our own storage is checked and stripped of metadata before anyone can read it.
    if (ctx.storage instanceof LocalStorage) ctx.storage.inspectUploads(sanitizeUploadedImage);
  },
  housekeeping: [
    {
      // /img variants: a month at most, 2 GB in all.
      name: 'media.prune_image_cache',
      everyMs: HOUR,
      run: async (ctx) => {
        await pruneImageCache(path.join(ctx.config.dataDir, 'cache/img'), {
          maxAgeMs: 30 * 24 * HOUR,
          maxBytes: 2 * 1024 ** 3,
        });
      },
    },
    {
      name: 'media.remove_stale_uploads',
      everyMs: HOUR,
      run: async (ctx) => {
        if (ctx.storage instanceof LocalStorage) await ctx.storage.removeStaleUploads();
      },
    },
  ],
});
