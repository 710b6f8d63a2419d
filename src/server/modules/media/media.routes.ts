import { Hono } from 'hono';
import { mediaContract } from '../../../shared/media/media.contract.ts';
import { imageQuerySchema } from './image-query.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { downloadImage, sharedTransformQueue, transformImage } from './image.service.ts';
import type { TransformQueue } from './transform-queue.ts';
import { enforceRateLimit } from '../../platform/rate-limit.ts';
import { clientIp } from '../../http/client-ip.ts';
import { createUploadAddress } from './upload.service.ts';

/** New variants (cache misses) one address may have made per minute. */
const IMAGE_TRANSFORMS_PER_IP = { limit: 240, windowMs: 60_000 };

export interface MediaRouteOptions {
  /** The transformation queue; the process-wide one unless a test brings its own. */
  queue?: TransformQueue;
  fetcher?: typeof fetch;
}

/** GET /img — the image transformation endpoint the image URL rule points at. */
export function imageTransformRoutes(ctx: AppContext, options: MediaRouteOptions = {}) {
  return new Hono().get('/img', async (c) => {
    const query = imageQuerySchema.parse(c.req.query());
    const ip = clientIp(c, ctx.config.trustProxy);
    const image = await transformImage(ctx.config, query, {
      fetcher: options.fetcher ?? fetch,
      queue: options.queue ?? sharedTransformQueue,
      client: ip,
      beforeTransform: () => enforceRateLimit(ctx.db, `img:ip:${ip}`, IMAGE_TRANSFORMS_PER_IP),
    });
    if (c.req.header('if-none-match') === image.etag) return c.body(null, 304);
    c.header('Content-Type', image.contentType);
    c.header('ETag', image.etag);
    c.header('Cache-Control', 'public, max-age=604800, stale-while-revalidate=86400');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(new Uint8Array(image.body));
  });
}

/**
 * GET /api/image/download?url= — streams an image as an attachment (the preview's download button);
 * POST /api/upload — an address to upload an image to.
 */
export function imageDownloadRoutes(ctx: AppContext) {
  return contractRoutes(ctx, mediaContract, {
    downloadImage: async (c, { query }) => {
      const image = await downloadImage(ctx.config, query.url);
      c.header('Content-Type', image.contentType);
      c.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(image.filename)}`);
      c.header('Cache-Control', 'private, max-age=3600');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(image.body));
    },

    upload: async (_c, { body, user }) => ({
      data: await createUploadAddress(ctx, { id: user.id, userId: user.user_id, group: user.user_group }, body),
    }),
  });
}
