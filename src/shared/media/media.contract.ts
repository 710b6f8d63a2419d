import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { uploadBodySchema, type UploadAddress } from './upload.ts';

/** The image endpoints under /api (the /img transformation endpoint lives outside /api). */
export const mediaContract = {
  downloadImage: endpoint({
    method: 'GET',
    path: '/image/download',
    query: z.object({ url: z.string().min(1).max(2048) }),
    // The answer is the image file itself, not the JSON envelope.
    response: as<Blob>(),
    summary: 'Downloads an image from our media or an allowed host as an attachment',
  }),
  upload: endpoint({
    method: 'POST',
    path: '/upload',
    body: uploadBodySchema,
    response: as<UploadAddress>(),
    auth: 'required',
    summary:
      'An address to PUT one image to (5 minutes, one content type, at most 4 MB, exactly `size` bytes when given); 10 a minute',
  }),
} as const;
