/**
 * What pages read from the community, in one place: they call these directly (through
 * `Astro.locals.app`), never the API. Writes go through the API (the editors), see community.routes.ts.
 */
export { getArticleDetail } from './articles.service.ts';
export {
  favoriteContentOf,
  feed,
  getCommunityFront,
  ownContent,
  userContent,
  type FeedRequest,
} from './feed.service.ts';
export { getPostDetail } from './posts.service.ts';
export { getSection, getTopic, listSections, listTopics, type TopicListRequest } from './topics.service.ts';
export { contentViewsOf } from './view-counter.ts';
export type { ContentViewer } from './content.service.ts';
