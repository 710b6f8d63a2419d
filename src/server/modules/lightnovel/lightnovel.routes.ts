import { lightnovelContract } from '../../../shared/lightnovel/lightnovel.contract.ts';
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { lightnovelDetail, listLightnovels, volumeDetail } from './lightnovel.service.ts';

const viewerOf = (user: { id: string; user_group: UserGroup } | null) =>
  user ? { id: user.id, group: user.user_group } : null;

/** The light-novel catalogue: the list, a series, a volume. */
export function lightnovelCatalogueRoutes(ctx: AppContext) {
  const db = ctx.db;
  return contractRoutes(ctx, lightnovelContract, {
    list: async (c, { query }) => {
      c.header('Cache-Control', 'public, max-age=60');
      return { data: await listLightnovels(db, query) };
    },
    series: async (_c, { params, user }) => ({ data: await lightnovelDetail(db, params.id, viewerOf(user)) }),
    volume: async (_c, { params, user }) => ({ data: await volumeDetail(db, params.id, viewerOf(user)) }),
  });
}
