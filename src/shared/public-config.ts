/**
 * Configuration the browser needs. Server-rendered pages embed it (see BaseLayout); prerendered pages
 * fetch it from GET /api/site/config.
 */
export interface PublicConfig {
  /** Public base URL of uploaded images, e.g. https://img.example.org or http://localhost:4321/media. */
  imageBedUrl: string;
  /** External hosts whose images may go through our /img transformation endpoint. */
  imageAllowedHosts: string[];
  analytics: { url: string; siteId: string } | null;
  chatUrl: string | null;
  /** Link of the header's advertisement item; the item is hidden when unset. */
  navAdUrl: string | null;
}

export const PUBLIC_CONFIG_ELEMENT_ID = 'hikari-public-config';
