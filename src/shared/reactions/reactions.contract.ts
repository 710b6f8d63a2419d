import { as, endpoint } from '../contract.ts';
import {
  likeBodySchema,
  likeCheckQuerySchema,
  likeParamsSchema,
  reportBodySchema,
  type LikeCheck,
  type LikeState,
  type ReportCreated,
} from './reactions.ts';

/** Likes on posts, articles, comments and ratings; reports of posts, articles and comments (decision 018). */
export const reactionsContract = {
  like: endpoint({
    method: 'POST',
    path: '/likes',
    body: likeBodySchema,
    response: as<LikeState & { isLiked: true }>(),
    auth: 'required',
    summary: 'Likes an item (idempotent); answers its like count',
  }),
  unlike: endpoint({
    method: 'DELETE',
    path: '/likes/:targetType/:targetId',
    params: likeParamsSchema,
    response: as<LikeState & { isLiked: false }>(),
    auth: 'required',
    summary: 'Takes a like back (idempotent); answers the like count',
  }),
  check: endpoint({
    method: 'GET',
    path: '/likes/check',
    query: likeCheckQuerySchema,
    response: as<LikeCheck>(),
    auth: 'required',
    summary: 'Which of up to 100 items of one type (`ids`, comma-separated) the caller has liked',
  }),
  report: endpoint({
    method: 'POST',
    path: '/reports',
    body: reportBodySchema,
    response: as<ReportCreated>(),
    auth: 'required',
    summary: 'Reports a post, article or comment to the moderators (one open report per item; 20 a day)',
  }),
} as const;
