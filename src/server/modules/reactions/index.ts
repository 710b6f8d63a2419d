import { defineModule } from '../module.ts';
import { reactionsRoutes } from './reactions.routes.ts';

/** Likes on posts, articles, comments and ratings; reports of posts, articles and comments. */
export const reactionsModule = defineModule({ name: 'reactions', api: reactionsRoutes });
