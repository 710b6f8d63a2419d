import { atom, map } from 'nanostores';
import type { UserGroup } from '../shared/auth-model.ts';
import type { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import type { communityContract } from '../shared/community/community.contract.ts';
import type { ContentType, FollowTargetType } from '../shared/community/community.ts';
import {
  browserApi,
  failure,
  loadCatalogueContract,
  loadedCatalogueContract,
  type CatalogueApi as Api,
  type Outcome,
} from './catalogue-client.ts';

/**
 * Client logic of the community pages: following sections and topics, favouriting posts and articles,
 * and what their authors and the moderators do with them (pin, feature, delete). Islands render these
 * stores and call their actions; every action resolves to an outcome instead of throwing.
 */

type CommunityContract = typeof communityContract;
type CatalogueContract = typeof catalogueContract;

// The contracts carry their request schemas (zod): they load with the first call, so a visitor's page,
// which calls nothing, does without them.
let loaded: CommunityContract | null = null;
export async function loadCommunityContract(): Promise<CommunityContract> {
  loaded ??= (await import('../shared/community/community.contract.ts')).communityContract;
  return loaded;
}
const community = async () => loaded ?? (await loadCommunityContract());
const catalogue = async (): Promise<CatalogueContract> => loadedCatalogueContract() ?? (await loadCatalogueContract());

/** MODERATOR_GROUPS of the community model (which brings zod with it); a unit test keeps them equal. */
export const MODERATORS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

/** What the viewer may do with a post or article: display only, the server checks every call. */
export interface ContentRights {
  /** The author: edit and delete. */
  canEdit: boolean;
  /** Moderators: delete, pin, feature. */
  canModerate: boolean;
}

/**
 * Staff moderate everywhere; a section moderator in their sections only (`moderated`: the sections the
 * viewer moderates, once known), as the server's `moderates` decides.
 */
export function contentRights(
  viewer: { userId: number; hikariUserGroup: UserGroup } | null,
  authorUserId: number,
  place: { sectionId: number | null; moderated: readonly number[] | null } = { sectionId: null, moderated: null },
): ContentRights {
  if (!viewer) return { canEdit: false, canModerate: false };
  const inTheirSection = place.sectionId !== null && (place.moderated?.includes(place.sectionId) ?? false);
  return {
    canEdit: authorUserId > 0 && viewer.userId === authorUserId,
    canModerate: MODERATORS.includes(viewer.hikariUserGroup) || inTheirSection,
  };
}

/** Whether a member's rights on an item of this section wait for the sections they moderate. */
export const asksModeratedSections = (
  viewer: { hikariUserGroup: UserGroup } | null,
  sectionId: number | null,
): boolean => viewer !== null && sectionId !== null && !MODERATORS.includes(viewer.hikariUserGroup);

/**
 * The sections the signed-in member moderates, asked once per member and page (most members moderate
 * none, and their pages are shared copies that cannot carry it); a failed call leaves them unknown.
 */
export function createModeratedSections(client: Api) {
  const $moderated = atom<{ userId: number; sectionIds: number[] } | null>(null);
  let asking: number | null = null;
  return {
    $moderated,
    /** The member's sections, or null while they are not known. */
    of(userId: number): number[] | null {
      const known = $moderated.get();
      return known && known.userId === userId ? known.sectionIds : null;
    },
    async load(userId: number): Promise<void> {
      if (asking === userId || $moderated.get()?.userId === userId) return;
      asking = userId;
      try {
        const api = await community();
        const answer = await client.call(api.moderatedSections);
        if (asking === userId) $moderated.set({ userId, sectionIds: answer.data.sectionIds });
      } catch {
        // Unknown: the buttons stay hidden, and the server checks every call anyway.
      } finally {
        if (asking === userId) asking = null;
      }
    },
  };
}

/** Where the author edits a post or article (the creator centre's editors). */
export const editHref = (type: ContentType, id: number) => `/create/content/${type}?id=${id}`;

// ---------------------------------------------------------------------------------------------------
// Following sections and topics

export interface FollowEntry {
  /** null until the server has said (visitors never learn it). */
  following: boolean | null;
  count: number;
  /** A request is out: a second press is ignored, so a double click never sends twice. */
  pending: boolean;
}

export const followKey = (type: FollowTargetType, id: number) => `${type}:${id}`;

export function createFollows(client: Api) {
  const $follows = map<Record<string, FollowEntry>>({});
  const entry = (type: FollowTargetType, id: number): FollowEntry =>
    $follows.get()[followKey(type, id)] ?? { following: null, count: 0, pending: false };
  const patch = (type: FollowTargetType, id: number, change: Partial<FollowEntry>) =>
    $follows.setKey(followKey(type, id), { ...entry(type, id), ...change });

  return {
    $follows,
    entry,
    /** The count the page was rendered with, unless a toggle is out. */
    seed(type: FollowTargetType, id: number, count: number): void {
      if (!entry(type, id).pending) patch(type, id, { count });
    },
    /** Asks whether the viewer follows the section or topic (its read answers that for a login). */
    async check(type: FollowTargetType, id: number): Promise<Outcome> {
      try {
        const api = await community();
        const answer =
          type === 'section'
            ? await client.call(api.section, { params: { id } })
            : await client.call(api.topic, { params: { id } });
        if (!entry(type, id).pending) {
          patch(type, id, { following: answer.data.isFollowing === true, count: answer.data.followerCount });
        }
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    /** Optimistic toggle: flips at once, sends one request, settles on the server's answer or rolls back. */
    async toggle(type: FollowTargetType, id: number): Promise<Outcome | { ok: false; busy: true }> {
      const before = entry(type, id);
      if (before.pending) return { ok: false, busy: true };
      const adding = before.following !== true;
      patch(type, id, {
        following: adding,
        count: Math.max(0, before.count + (adding ? 1 : -1)),
        pending: true,
      });
      try {
        const api = await community();
        const answer = adding
          ? await client.call(api.follow, { body: { targetType: type, targetId: id } })
          : await client.call(api.unfollow, { params: { targetType: type, targetId: id } });
        patch(type, id, { following: answer.data.isFollowing, count: answer.data.followerCount, pending: false });
        return { ok: true };
      } catch (error) {
        patch(type, id, { following: before.following, count: before.count, pending: false });
        return failure(error);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Favourite posts, articles and light novels (the favourites API of the catalogue, with that itemType)

export interface ContentFavoriteEntry {
  favorited: boolean | null;
  count: number;
  pending: boolean;
}

/** What the content favourite button favourites: posts and articles, and light-novel series. */
export type FavoritableContent = ContentType | 'lightnovel';

export const contentKey = (type: FavoritableContent, id: number) => `${type}:${id}`;

export function createContentFavorites(client: Api) {
  const $favorites = map<Record<string, ContentFavoriteEntry>>({});
  const entry = (type: FavoritableContent, id: number): ContentFavoriteEntry =>
    $favorites.get()[contentKey(type, id)] ?? { favorited: null, count: 0, pending: false };
  const patch = (type: FavoritableContent, id: number, change: Partial<ContentFavoriteEntry>) =>
    $favorites.setKey(contentKey(type, id), { ...entry(type, id), ...change });

  return {
    $favorites,
    entry,
    seed(type: FavoritableContent, id: number, count: number): void {
      if (!entry(type, id).pending) patch(type, id, { count });
    },
    async check(type: FavoritableContent, id: number): Promise<Outcome> {
      try {
        const answer = await client.call((await catalogue()).favoriteCheck, { query: { itemType: type, itemId: id } });
        if (!entry(type, id).pending) {
          patch(type, id, { favorited: answer.data.isFavorited, count: answer.data.favoriteCount });
        }
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    async toggle(type: FavoritableContent, id: number): Promise<Outcome | { ok: false; busy: true }> {
      const before = entry(type, id);
      if (before.pending) return { ok: false, busy: true };
      const adding = before.favorited !== true;
      patch(type, id, {
        favorited: adding,
        count: Math.max(0, before.count + (adding ? 1 : before.favorited ? -1 : 0)),
        pending: true,
      });
      try {
        const api = await catalogue();
        const answer = adding
          ? await client.call(api.addFavorite, { body: { itemType: type, itemId: id } })
          : await client.call(api.removeFavorite, { params: { itemType: type, itemId: id } });
        patch(type, id, { favorited: answer.data.isFavorited, count: answer.data.favoriteCount, pending: false });
        return { ok: true };
      } catch (error) {
        patch(type, id, { favorited: before.favorited, count: before.count, pending: false });
        return failure(error);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Pinning, featuring and deleting (authors delete their own; moderators anything)

export interface ModerationEntry {
  pinned: boolean;
  featured: boolean;
  /** Deleted from this page: the island sends the reader away. */
  deleted: boolean;
  pending: boolean;
}

export function createContentModeration(client: Api) {
  const $moderation = map<Record<string, ModerationEntry>>({});
  const entry = (type: ContentType, id: number): ModerationEntry =>
    $moderation.get()[contentKey(type, id)] ?? { pinned: false, featured: false, deleted: false, pending: false };
  const patch = (type: ContentType, id: number, change: Partial<ModerationEntry>) =>
    $moderation.setKey(contentKey(type, id), { ...entry(type, id), ...change });

  return {
    $moderation,
    entry,
    /** The marks the page was rendered with, unless a change is out. */
    seed(type: ContentType, id: number, marks: { pinned: boolean; featured: boolean }): void {
      if (!entry(type, id).pending) patch(type, id, { pinned: marks.pinned, featured: marks.featured });
    },
    /** Pins or features (or takes it back); the marks follow the server's answer. */
    async set(
      type: ContentType,
      id: number,
      change: { pinned?: boolean; featured?: boolean },
    ): Promise<Outcome | { ok: false; busy: true }> {
      if (entry(type, id).pending) return { ok: false, busy: true };
      patch(type, id, { pending: true });
      try {
        const api = await community();
        const answer =
          type === 'post'
            ? await client.call(api.moderatePost, { params: { id }, body: change })
            : await client.call(api.moderateArticle, { params: { id }, body: change });
        patch(type, id, { pinned: answer.data.pinned, featured: answer.data.featured, pending: false });
        return { ok: true };
      } catch (error) {
        patch(type, id, { pending: false });
        return failure(error);
      }
    },
    async remove(type: ContentType, id: number): Promise<Outcome | { ok: false; busy: true }> {
      if (entry(type, id).pending) return { ok: false, busy: true };
      patch(type, id, { pending: true });
      try {
        const api = await community();
        if (type === 'post') await client.call(api.deletePost, { params: { id } });
        else await client.call(api.deleteArticle, { params: { id } });
        patch(type, id, { deleted: true, pending: false });
        return { ok: true };
      } catch (error) {
        patch(type, id, { pending: false });
        return failure(error);
      }
    },
  };
}

export const follows = createFollows(browserApi);
export const contentFavorites = createContentFavorites(browserApi);
export const contentModeration = createContentModeration(browserApi);
export const moderatedSections = createModeratedSections(browserApi);
