import { defineModule } from '../module.ts';
import { commentsRoutes } from './comments.routes.ts';
import { commentTarget } from './comments.targets.ts';

/** Comments and replies on every target that keeps a comment count; the `comment` target (likes, reports). */
export const commentsModule = defineModule({ name: 'comments', api: commentsRoutes, targets: [commentTarget] });
