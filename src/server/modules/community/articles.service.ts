import type { JSONContent } from '@tiptap/core';
import { type ArticleDetail, type ArticleInput, type ArticleRatingBrief } from '../../../shared/community/community.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { showsNothing } from '../../../shared/visible-text.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import type { TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { renderArticleBody } from './article-body.ts';
import {
  findArticle,
  sectionBriefs,
  topicsOfItem,
  unknownAuthor,
  userBriefs,
  viewerMarks,
  workBriefs,
  worksOf,
} from './community.repository.ts';
import type { ArticleRow } from './community.tables.ts';
import {
  checkWorks,
  contentNotFound,
  createContent,
  deleteContent,
  excerptOf,
  moderateContent,
  moderates,
  ourImageKey,
  refuseWhenLimited,
  updateContent,
  visibleContent,
  type CommunityDeps,
  type ContentDraft,
  type ContentKind,
  type ContentViewer,
} from './content.service.ts';
import type { NotifyDeps } from '../notifications/notifications.queue.ts';

/**
 * Articles: a title, an optional slug (its second address), a cover, a summary, a Tiptap body rendered
 * and sanitised on the server at every save, a section, topics, related works, and an optional review
 * flag linking the author's own rating of the reviewed work. Shared rules are content.service.ts's.
 */

type ArticleColumns = Pick<
  ArticleRow,
  | 'slug'
  | 'cover'
  | 'summary'
  | 'body'
  | 'body_html'
  | 'body_text'
  | 'is_review'
  | 'review_work_type'
  | 'review_work_id'
  | 'rating_id'
>;

const fingerprint = (title: string, body: string, cover: string) => JSON.stringify([title, body, cover]);

const slugTaken = (slug: string) => {
  const message = messageRef('server.community.slugTaken', { slug });
  return new HttpError(409, 'SLUG_TAKEN', message, fieldIssue('slug', message));
};

export const articleKind: ContentKind<ArticleRow, ArticleColumns> = {
  type: 'article',
  find: (db, id) => findArticle(db, { id }),
  fingerprintOf: (row) => fingerprint(row.title, row.body, row.cover),
  imageUrlsOf: (row) => {
    const urls = row.cover ? [row.cover] : [];
    try {
      return [...urls, ...renderArticleBody(JSON.parse(row.body)).images];
    } catch {
      return urls;
    }
  },
  insert: async (trx, row) => {
    await trx.insertInto('article').values(row).execute();
  },
  update: async (trx, id, row) => {
    await trx.updateTable('article').set(row).where('id', '=', id).execute();
  },
};

const bad = (key: Parameters<typeof messageRef>[0], field: string, params?: Record<string, string | number>) => {
  const message = messageRef(key, params);
  return new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(field, message));
};

/**
 * An article as it will be saved. The body is rendered (and refused when invalid or too large) at every
 * save; the cover must be ours (uploaded for articles), body images may come from elsewhere unless they
 * are on our image bed. Publishing (`strict`) also needs text, and a review needs the author's rating.
 */
export async function prepareArticle(
  deps: Pick<CommunityDeps, 'db' | 'storage' | 'targets'>,
  viewer: ContentViewer,
  input: ArticleInput,
  strict: boolean,
): Promise<ContentDraft<ArticleColumns>> {
  const rendered = renderArticleBody(input.body);
  if (strict && showsNothing(rendered.text)) throw bad('server.community.bodyRequired', 'body');
  // A draft may have no text yet, but not text nobody can see (the text fields' rule).
  if (rendered.text !== '' && showsNothing(rendered.text))
    throw bad('validation.text.invisible', 'body', { label: 'server.community.label.content' });
  const images: { url: string; key: string }[] = [];
  if (input.cover)
    images.push({ url: input.cover, key: ourImageKey(deps.storage, input.cover, 'article', 'cover', false) ?? '' });
  for (const url of rendered.images) {
    const key = ourImageKey(deps.storage, url, 'article', 'body', true);
    if (key && !images.some((image) => image.key === key)) images.push({ url, key });
  }

  let review: Pick<ArticleColumns, 'is_review' | 'review_work_type' | 'review_work_id' | 'rating_id'> = {
    is_review: 0,
    review_work_type: null,
    review_work_id: null,
    rating_id: null,
  };
  if (input.isReview) {
    const work = input.reviewWork;
    if (!work) {
      if (strict) throw bad('server.community.reviewWorkRequired', 'reviewWork');
      review = { ...review, is_review: 1 };
    } else {
      await checkWorks(deps, viewer, [work], 'reviewWork');
      // Only games are rated (the rating table); a light-novel review has nothing to link yet.
      if (work.type !== 'galgame') {
        if (strict) throw bad('server.community.reviewWorkType', 'reviewWork');
        review = { is_review: 1, review_work_type: work.type, review_work_id: work.id, rating_id: null };
      } else {
        const rating = await deps.db
          .selectFrom('rating')
          .select('id')
          .where('user_id', '=', viewer.id)
          .where('galgame_id', '=', work.id)
          .executeTakeFirst();
        if (!rating && strict) {
          const game = await deps.targets.require(deps.db, work, viewer);
          throw bad('server.community.reviewNotRated', 'reviewWork', { title: game.title });
        }
        review = { is_review: 1, review_work_type: work.type, review_work_id: work.id, rating_id: rating?.id ?? null };
      }
    }
  }

  const body = JSON.stringify(rendered.doc);
  return {
    title: input.title,
    sectionId: input.sectionId,
    topics: input.topics,
    works: input.works,
    excerpt: excerptOf(input.summary || rendered.text),
    images,
    fingerprint: fingerprint(input.title, body, input.cover),
    columns: {
      slug: input.slug,
      cover: input.cover,
      summary: input.summary,
      body,
      body_html: rendered.html,
      body_text: rendered.text,
      ...review,
    },
  };
}

/** One article by id or slug, as the viewer may see it (404 otherwise). */
export async function getArticleDetail(
  deps: { db: Db; targets: TargetRegistry },
  by: { id: number } | { slug: string },
  viewer: ContentViewer | null,
): Promise<ArticleDetail> {
  const id = 'id' in by ? by.id : (await findArticle(deps.db, by))?.id;
  if (id === undefined) throw contentNotFound('article');
  const row = await visibleContent(deps.db, articleKind, id, viewer);
  return articleDetailOf(deps, row, viewer);
}

function parseDoc(body: string): JSONContent {
  try {
    return JSON.parse(body) as JSONContent;
  } catch {
    return { type: 'doc', content: [] };
  }
}

async function articleDetailOf(
  deps: { db: Db; targets: TargetRegistry },
  row: ArticleRow,
  viewer: ContentViewer | null,
): Promise<ArticleDetail> {
  const targetViewer: TargetViewer = viewer;
  const reviewRef =
    row.is_review === 1 && row.review_work_type !== null && row.review_work_id !== null
      ? { type: row.review_work_type, id: row.review_work_id }
      : null;
  const [authors, sections, topics, works, marks, reviewWorks, rating] = await Promise.all([
    userBriefs(deps.db, [row.user_id]),
    sectionBriefs(deps.db, [row.section_id]),
    topicsOfItem(deps.db, 'article', row),
    worksOf(deps.db, 'article', row.id).then((refs) => workBriefs(deps, targetViewer, refs)),
    viewerMarks(deps.db, viewer?.id ?? null, { type: 'article', id: row.id }),
    reviewRef ? workBriefs(deps, targetViewer, [reviewRef]) : Promise.resolve([]),
    row.rating_id === null
      ? Promise.resolve(undefined)
      : deps.db
          .selectFrom('rating')
          .select(['id', 'score', 'play_status'])
          .where('id', '=', row.rating_id)
          .executeTakeFirst(),
  ]);
  const ratingBrief: ArticleRatingBrief | null = rating
    ? { id: rating.id, score: rating.score, status: rating.play_status }
    : null;
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    cover: row.cover,
    summary: row.summary,
    body: parseDoc(row.body),
    bodyHtml: row.body_html,
    isReview: row.is_review === 1,
    reviewWork: reviewWorks[0] ?? null,
    rating: ratingBrief,
    status: row.status,
    section: row.section_id === null ? null : (sections.get(row.section_id) ?? null),
    topics,
    works,
    author: authors.get(row.user_id) ?? unknownAuthor,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    favoriteCount: row.favorite_count,
    viewCount: row.view_count,
    pinned: row.pinned === 1,
    featured: row.featured === 1,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    editedAt: row.edited_at,
    viewer: {
      ...marks,
      canEdit: viewer !== null && viewer.id === row.user_id && (row.status === 'draft' || row.status === 'published'),
      canModerate: viewer !== null && (await moderates(deps.db, viewer, row)),
    },
  };
}

/** Runs a save; a slug another article took first (unique index) answers 409 SLUG_TAKEN. */
async function withSlug<T>(slug: string | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (slug !== null && isUniqueViolation(error)) throw slugTaken(slug);
    throw error;
  }
}

/** Refuses a slug another article has (the unique index still decides under concurrency). */
async function checkSlugFree(db: Db, slug: string | null, ownId: number | null): Promise<void> {
  if (slug === null) return;
  const other = await db.selectFrom('article').select('id').where('slug', '=', slug).executeTakeFirst();
  if (other && other.id !== ownId) throw slugTaken(slug);
}

export async function createArticle(
  deps: CommunityDeps,
  viewer: ContentViewer,
  input: ArticleInput & { publish: boolean },
  now = new Date(),
): Promise<ArticleDetail> {
  // Rendering the body is the costly part: a writer over the limits is answered before it.
  await refuseWhenLimited(deps.db, viewer.id, input.publish ? ['create', 'save', 'publish'] : ['create', 'save'], now);
  const draft = await prepareArticle(deps, viewer, input, input.publish);
  await checkSlugFree(deps.db, input.slug, null);
  const id = await withSlug(input.slug, () => createContent(deps, viewer, articleKind, draft, input.publish, now));
  return getArticleDetail(deps, { id }, viewer);
}

export async function updateArticle(
  deps: CommunityDeps,
  viewer: ContentViewer,
  id: number,
  input: ArticleInput & { publish: boolean; version: number },
  now = new Date(),
): Promise<ArticleDetail> {
  await refuseWhenLimited(deps.db, viewer.id, ['save'], now);
  const draft = await prepareArticle(deps, viewer, input, input.publish);
  await checkSlugFree(deps.db, input.slug, id);
  await withSlug(input.slug, () => updateContent(deps, viewer, articleKind, id, draft, input, now));
  return getArticleDetail(deps, { id }, viewer);
}

export async function deleteArticle(
  deps: Pick<CommunityDeps, 'db'> & NotifyDeps,
  viewer: ContentViewer,
  id: number,
  now = new Date(),
): Promise<{ deleted: true }> {
  await deleteContent(deps, viewer, articleKind, id, now);
  return { deleted: true };
}

export async function moderateArticle(
  deps: { db: Db; targets: TargetRegistry } & NotifyDeps,
  viewer: ContentViewer,
  id: number,
  change: { pinned?: boolean | undefined; featured?: boolean | undefined },
): Promise<ArticleDetail> {
  await moderateContent(deps, viewer, articleKind, id, change);
  return getArticleDetail(deps, { id }, viewer);
}
