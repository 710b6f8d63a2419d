import { Hono } from 'hono';
import { defineModule } from '../module.ts';
import { creatorItemsRoutes } from './creator.items.routes.ts';
import { creatorManageRoutes } from './creator.manage.routes.ts';
import { updateRequestsRoutes } from './update-requests.routes.ts';
import { creatorApplicationRoutes } from './application.routes.ts';

/**
 * The creator centre (decision 028): editors of catalogue items and entities with their revision
 * history (creator.items.routes), update requests and their review (update-requests.routes), and
 * creator applications (application.routes).
 */
export const creatorModule = defineModule({
  name: 'creator',
  api: (ctx) =>
    new Hono()
      .route('/', creatorItemsRoutes(ctx))
      .route('/', creatorManageRoutes(ctx))
      .route('/', updateRequestsRoutes(ctx))
      .route('/', creatorApplicationRoutes(ctx)),
});
