import type { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import type { communityContract } from '../shared/community/community.contract.ts';
import type { Pagination } from '../shared/catalogue.ts';
import type {
  ArticleDetail,
  ArticleInput,
  ContentListItem,
  ContentType,
  PostDetail,
  PostInput,
  SectionView,
  TopicView,
  WorkBrief,
} from '../shared/community/community.ts';
import { ApiError, type ApiClient } from './api-client.ts';
import type { SaveFailure, SavedContent } from './content-autosave.ts';

/**
 * What the post and article editors ask of the server: saving (through the autosave store), the
 * sections to choose from, topic suggestions and games to relate. The API and its contracts load with
 * the first call.
 */

interface EditorApi {
  client: Pick<ApiClient, 'call'>;
  community: typeof communityContract;
  catalogue: typeof catalogueContract;
}

let loading: Promise<EditorApi> | null = null;
export function loadEditorApi(): Promise<EditorApi> {
  loading ??= Promise.all([
    import('./api-client.ts'),
    import('../shared/community/community.contract.ts'),
    import('../shared/catalogue/catalogue.contract.ts'),
  ]).then(([{ api }, { communityContract: community }, { catalogueContract: catalogue }]) => ({
    client: api,
    community,
    catalogue,
  }));
  return loading;
}

/** Where a published item is read. */
export const contentUrl = (type: ContentType, item: { id: number; slug?: string | null }): string =>
  type === 'post' ? `/community/post/${item.id}` : `/community/article/${item.slug ?? item.id}`;

const saved = (type: ContentType, detail: PostDetail | ArticleDetail): SavedContent => ({
  id: detail.id,
  version: detail.version,
  status: detail.status,
  url: contentUrl(type, { id: detail.id, slug: 'slug' in detail ? detail.slug : null }),
});

export async function savePost(
  input: PostInput,
  ref: { id: number | null; version: number | null },
  publish: boolean,
): Promise<SavedContent> {
  const { client, community } = await loadEditorApi();
  const answer =
    ref.id === null
      ? await client.call(community.createPost, { body: { ...input, publish } })
      : await client.call(community.updatePost, {
          params: { id: ref.id },
          body: { ...input, publish, version: ref.version ?? 1 },
        });
  return saved('post', answer.data);
}

export async function saveArticle(
  input: ArticleInput,
  ref: { id: number | null; version: number | null },
  publish: boolean,
): Promise<SavedContent> {
  const { client, community } = await loadEditorApi();
  const body = { ...input, body: { ...input.body, type: 'doc' as const }, publish };
  const answer =
    ref.id === null
      ? await client.call(community.createArticle, { body })
      : await client.call(community.updateArticle, {
          params: { id: ref.id },
          body: { ...body, version: ref.version ?? 1 },
        });
  return saved('article', answer.data);
}

/**
 * The item an editor opens (`?id=`), read through the API so the login decides: null when there is
 * none to open, else the item or why it cannot be edited here.
 */
export type OpenedContent<T> = { ok: true; item: T } | { ok: false; message: string };

export async function openPost(id: number): Promise<OpenedContent<PostDetail>> {
  try {
    const { client, community } = await loadEditorApi();
    const item = (await client.call(community.post, { params: { id } })).data;
    return item.viewer.canEdit ? { ok: true, item } : { ok: false, message: '' };
  } catch (error) {
    return { ok: false, message: describeSaveError(error).message };
  }
}

export async function openArticle(id: number): Promise<OpenedContent<ArticleDetail>> {
  try {
    const { client, community } = await loadEditorApi();
    const item = (await client.call(community.article, { params: { idOrSlug: String(id) } })).data;
    return item.viewer.canEdit ? { ok: true, item } : { ok: false, message: '' };
  } catch (error) {
    return { ok: false, message: describeSaveError(error).message };
  }
}

/** A failed save as the editor shows it; field problems of a 400 are listed after the message. */
export function describeSaveError(error: unknown): SaveFailure {
  if (error instanceof ApiError) {
    const issues = error.issues.map((issue) => issue.message).filter((message) => message && message !== error.message);
    return {
      conflict: error.code === 'CONTENT_CONFLICT',
      message: [error.message, ...issues].join(' '),
    };
  }
  return { conflict: false, message: error instanceof Error ? error.message : String(error) };
}

export async function loadSections(): Promise<SectionView[]> {
  const { client, community } = await loadEditorApi();
  return (await client.call(community.sections)).data;
}

/** Topics whose name matches what is being typed, most used first. */
export async function suggestTopics(keyword: string): Promise<TopicView[]> {
  const { client, community } = await loadEditorApi();
  const answer = await client.call(community.topics, {
    query: { keyword: keyword.trim(), sort: 'popular', page: 1, limit: 8 },
  });
  return answer.data.items;
}

/** Games whose title contains the keyword, as related works. */
export async function lookupWorks(keyword: string): Promise<WorkBrief[]> {
  const { client, catalogue } = await loadEditorApi();
  const answer = await client.call(catalogue.lookup, { query: { keyword: keyword.trim() } });
  return answer.data.map((game) => ({
    type: 'galgame',
    id: game.id,
    title: game.titleZh || game.title,
    cover: game.cover,
    url: `/galgame/${game.id}`,
  }));
}

/** The viewer's own lists: drafts, or what they have published. */
export type OwnList = 'drafts' | 'published';

export async function listOwnContent(
  list: OwnList,
  type: ContentType | null,
  page: number,
  limit: number,
): Promise<{ items: ContentListItem[]; pagination: Pagination }> {
  const { client, community } = await loadEditorApi();
  const query = { page, limit, ...(type ? { type } : {}) };
  const answer = await client.call(list === 'drafts' ? community.drafts : community.published, { query });
  return answer.data;
}

export async function deleteContent(
  type: ContentType,
  id: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const { client, community } = await loadEditorApi();
    await client.call(type === 'post' ? community.deletePost : community.deleteArticle, { params: { id } });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: describeSaveError(error).message };
  }
}
