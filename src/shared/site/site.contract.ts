import { as, endpoint } from '../contract.ts';
import type { PublicConfig } from '../public-config.ts';

/** What the browser needs to know about the site. */
export const siteContract = {
  config: endpoint({
    method: 'GET',
    path: '/site/config',
    response: as<PublicConfig>(),
    summary: 'The public configuration: image hosts, analytics, chat address, header ad link',
  }),
} as const;
