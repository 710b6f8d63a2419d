import { type PostDetail, type PostInput } from '../../../shared/community/community.ts';
import { parseMarkers } from '../../../shared/comment-markers.ts';
import type { Db } from '../../db/database.ts';
import type { TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { parseJsonList } from '../catalogue/catalogue.mappers.ts';
import {
  findPost,
  sectionBriefs,
  topicsOfItem,
  unknownAuthor,
  userBriefs,
  viewerMarks,
  workBriefs,
  worksOf,
} from './community.repository.ts';
import type { PostRow } from './community.tables.ts';
import {
  createContent,
  deleteContent,
  excerptOf,
  moderateContent,
  moderates,
  ourImageKey,
  updateContent,
  visibleContent,
  type CommunityDeps,
  type ContentDraft,
  type ContentKind,
  type ContentViewer,
} from './content.service.ts';
import type { NotifyDeps } from '../notifications/notifications.queue.ts';

/**
 * Posts: a title, text with emoji and image markers, up to nine images uploaded for posts, a section,
 * topics and related works. The shared rules (drafts, versions, counts, limits) are content.service.ts's.
 */

interface PostColumns {
  content: string;
  images: string;
}

const fingerprint = (title: string, content: string, images: string) => JSON.stringify([title, content, images]);

/** The text of a post without its markers, for excerpts. */
function plainText(content: string): string {
  return parseMarkers(content)
    .map((token) => (token.type === 'text' ? token.text : ' '))
    .join('');
}

/** A post's excerpt: its text without markers, on one line, shortened. */
export const postExcerpt = (content: string): string => excerptOf(plainText(content));

export const postKind: ContentKind<PostRow, PostColumns> = {
  type: 'post',
  find: findPost,
  fingerprintOf: (row) => fingerprint(row.title, row.content, row.images),
  imageUrlsOf: (row) => [
    ...parseJsonList<string>(row.images),
    ...parseMarkers(row.content).flatMap((token) => (token.type === 'image' ? [token.url] : [])),
  ],
  insert: async (trx, row) => {
    await trx.insertInto('post').values(row).execute();
  },
  update: async (trx, id, row) => {
    await trx.updateTable('post').set(row).where('id', '=', id).execute();
  },
};

/**
 * A post as it will be saved. Listed images must be ours (uploaded for posts); an `[img]` marker may
 * show an image from elsewhere, but one on our image bed must also have been uploaded for a post.
 */
export function preparePost(deps: Pick<CommunityDeps, 'storage'>, input: PostInput): ContentDraft<PostColumns> {
  const images = input.images.map((url, index) => ({
    url,
    key: ourImageKey(deps.storage, url, 'post', `images.${index}`, false) ?? '',
  }));
  const inText = parseMarkers(input.content).flatMap((token) => {
    if (token.type !== 'image') return [];
    const key = ourImageKey(deps.storage, token.url, 'post', 'content', true);
    return key ? [{ url: token.url, key }] : [];
  });
  const seen = new Set<string>();
  const imagesJson = JSON.stringify(input.images);
  return {
    title: input.title,
    sectionId: input.sectionId,
    topics: input.topics,
    works: input.works,
    excerpt: postExcerpt(input.content),
    images: [...images, ...inText].filter((image) => !seen.has(image.key) && seen.add(image.key)),
    fingerprint: fingerprint(input.title, input.content, imagesJson),
    columns: { content: input.content, images: imagesJson },
  };
}

/** One post as the viewer may see it (404 otherwise). */
export async function getPostDetail(
  deps: { db: Db; targets: TargetRegistry },
  id: number,
  viewer: ContentViewer | null,
): Promise<PostDetail> {
  const row = await visibleContent(deps.db, postKind, id, viewer);
  return postDetailOf(deps, row, viewer);
}

async function postDetailOf(
  deps: { db: Db; targets: TargetRegistry },
  row: PostRow,
  viewer: ContentViewer | null,
): Promise<PostDetail> {
  const targetViewer: TargetViewer = viewer;
  const [authors, sections, topics, works, marks] = await Promise.all([
    userBriefs(deps.db, [row.user_id]),
    sectionBriefs(deps.db, [row.section_id]),
    topicsOfItem(deps.db, 'post', row),
    worksOf(deps.db, 'post', row.id).then((refs) => workBriefs(deps, targetViewer, refs)),
    viewerMarks(deps.db, viewer?.id ?? null, { type: 'post', id: row.id }),
  ]);
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    images: parseJsonList<string>(row.images),
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

export async function createPost(
  deps: CommunityDeps,
  viewer: ContentViewer,
  input: PostInput & { publish: boolean },
  now = new Date(),
): Promise<PostDetail> {
  const id = await createContent(deps, viewer, postKind, preparePost(deps, input), input.publish, now);
  return getPostDetail(deps, id, viewer);
}

export async function updatePost(
  deps: CommunityDeps,
  viewer: ContentViewer,
  id: number,
  input: PostInput & { publish: boolean; version: number },
  now = new Date(),
): Promise<PostDetail> {
  await updateContent(deps, viewer, postKind, id, preparePost(deps, input), input, now);
  return getPostDetail(deps, id, viewer);
}

export async function deletePost(
  deps: Pick<CommunityDeps, 'db'> & NotifyDeps,
  viewer: ContentViewer,
  id: number,
  now = new Date(),
): Promise<{ deleted: true }> {
  await deleteContent(deps, viewer, postKind, id, now);
  return { deleted: true };
}

export async function moderatePost(
  deps: { db: Db; targets: TargetRegistry } & NotifyDeps,
  viewer: ContentViewer,
  id: number,
  change: { pinned?: boolean | undefined; featured?: boolean | undefined },
): Promise<PostDetail> {
  await moderateContent(deps, viewer, postKind, id, change);
  return getPostDetail(deps, id, viewer);
}
