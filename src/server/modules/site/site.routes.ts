import { siteContract } from '../../../shared/site/site.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { publicConfigFrom } from './site.service.ts';

export function siteRoutes(ctx: AppContext) {
  return contractRoutes(ctx, siteContract, {
    config: (c) => {
      c.header('Cache-Control', 'public, max-age=60');
      return { data: publicConfigFrom(ctx.config) };
    },
  });
}
