import {
  COMMENT_CONTENT_MAX,
  COMMENT_PAGE_DEFAULT,
  COMMENT_REPLY_PAGE_DEFAULT,
} from '../shared/comments/comments-model.ts';
import { atom } from 'nanostores';
import { showsNothing } from '../shared/visible-text.ts';
import type { commentsContract } from '../shared/comments/comments.contract.ts';
import type { CommentPage, CommentSort, CommentThread, CommentView } from '../shared/comments/comments.ts';
import type { Pagination } from '../shared/catalogue-model.ts';
import type { TargetType } from '../shared/targets.ts';
import { browserApi, failure, type CatalogueApi as Api, type Outcome } from './catalogue-client.ts';

/**
 * Client logic of a comment section (decision 018): the roots of one target page by page, each with its
 * replies (a preview of three, then page by page, oldest first), posting, deleting and pinning. The island
 * renders the state and calls the actions; every action resolves to an outcome instead of throwing. Likes
 * are the likes store's (reactions.ts): each like button takes its comment's count and, once known, the
 * viewer's like from this state.
 */

type CommentsContract = typeof commentsContract;

// The contract brings its request schemas (zod): loaded with the first call, so a visitor who only reads
// the comments the page came with never downloads it.
let loaded: CommentsContract | null = null;
export async function loadCommentsContract(): Promise<CommentsContract> {
  loaded ??= (await import('../shared/comments/comments.contract.ts')).commentsContract;
  return loaded;
}

/** Longest comment. */
export const COMMENT_TEXT_LIMIT = COMMENT_CONTENT_MAX;
/** Replies read per page under a root. */
export const REPLY_PAGE_SIZE = COMMENT_REPLY_PAGE_DEFAULT;
/** Roots read per page. */
export const ROOT_PAGE_SIZE = COMMENT_PAGE_DEFAULT;

export interface ThreadState {
  comment: CommentView;
  /** Oldest first: the preview, then what was read page by page, and the viewer's own new replies. */
  replies: CommentView[];
  /** Pages of replies read so far; 0 while only the preview is shown. */
  repliesPage: number;
  repliesTotalPages: number;
  loadingReplies: boolean;
}

export interface CommentSectionState {
  targetType: TargetType;
  targetId: number;
  sort: CommentSort;
  threads: ThreadState[];
  /** Pages of roots read so far; 0 when none was read (the page had none to give). */
  page: number;
  totalPages: number;
  /** The target's visible comments, replies included. */
  total: number;
  /** `replace`: page 1 is being read again (sort switch, refresh); `more`: the next page. */
  loading: 'replace' | 'more' | null;
  /** The last read failed (shown with a retry); null otherwise. */
  error: string | null;
  /** The viewer flags (isLiked, canDelete, canPin) are the caller's: the list was read with the login. */
  viewerKnown: boolean;
  posting: boolean;
  /** The comment the viewer posted last (the list marks it). */
  justPosted: number | null;
  /** Comments with a delete or pin out: their buttons wait, and a second press does nothing. */
  busy: Record<number, true>;
}

export type DraftProblem = 'discussion.composer.empty' | 'discussion.composer.tooLong';
export type PostOutcome =
  | { ok: true; comment: CommentView; message: string }
  | { ok: false; message: string }
  | { ok: false; problem: DraftProblem };
export type ActionOutcome = { ok: true; message: string } | { ok: false; message: string };
type Busy = { ok: false; busy: true };

export interface CommentSectionInit {
  targetType: TargetType;
  targetId: number;
  sort: CommentSort;
  /** The first page as the server read it for every visitor (no viewer flags), or null when it did not. */
  initial: CommentPage | null;
}

/** The problem with a draft before sending it, as a message key, or null when it may be sent. */
export function draftProblem(text: string): DraftProblem | null {
  const trimmed = text.trim();
  // The server's rule: text of spaces, zero-width characters or lone accents is no comment.
  if (showsNothing(trimmed)) return 'discussion.composer.empty';
  if (trimmed.length > COMMENT_TEXT_LIMIT) return 'discussion.composer.tooLong';
  return null;
}

const failed = (error: unknown) => failure(error) as { ok: false; message: string };

const byAge = (a: CommentView, b: CommentView) =>
  a.createdAt === b.createdAt ? a.id - b.id : a.createdAt < b.createdAt ? -1 : 1;

/** `items` with each id once (the first), e.g. a page that overlaps what is shown after new comments. */
function uniqueById<T extends { id: number }>(items: readonly T[]): T[] {
  const seen = new Set<number>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}

const threadOf = (thread: CommentThread): ThreadState => {
  const { replies, ...comment } = thread;
  return { comment, replies, repliesPage: 0, repliesTotalPages: 0, loadingReplies: false };
};

/** Whether a root has replies not shown yet. */
export function hasMoreReplies(thread: ThreadState): boolean {
  if (thread.repliesPage > 0 && thread.repliesPage >= thread.repliesTotalPages) return false;
  return thread.comment.replyCount > thread.replies.length;
}

/** Whether more roots can be read. */
export const hasMoreRoots = (state: CommentSectionState) => state.page > 0 && state.page < state.totalPages;

/** The comment (root or reply) with this id among those shown. */
export function findComment(state: CommentSectionState, id: number): CommentView | null {
  for (const thread of state.threads) {
    if (thread.comment.id === id) return thread.comment;
    const reply = thread.replies.find((item) => item.id === id);
    if (reply) return reply;
  }
  return null;
}

/** The pinned root goes first (page 1 comes that way; a pin made here moves it). */
const pinnedFirst = (threads: ThreadState[]) => [
  ...threads.filter((thread) => thread.comment.pinned),
  ...threads.filter((thread) => !thread.comment.pinned),
];

export function createCommentSection(client: Api, init: CommentSectionInit) {
  const $state = atom<CommentSectionState>({
    targetType: init.targetType,
    targetId: init.targetId,
    sort: init.sort,
    threads: (init.initial?.items ?? []).map(threadOf),
    page: init.initial ? init.initial.pagination.page : 0,
    totalPages: init.initial ? init.initial.pagination.totalPages : 0,
    total: init.initial?.total ?? 0,
    loading: null,
    error: null,
    viewerKnown: false,
    posting: false,
    justPosted: null,
    busy: {},
  });

  const get = () => $state.get();
  const set = (change: Partial<CommentSectionState>) => $state.set({ ...get(), ...change });
  const mapThreads = (change: (thread: ThreadState) => ThreadState) => set({ threads: get().threads.map(change) });
  const setBusy = (id: number, on: boolean) => {
    const busy = { ...get().busy };
    if (on) busy[id] = true;
    else delete busy[id];
    set({ busy });
  };

  // Each read of page 1 gets a number: an answer to an older one (a sort switched twice quickly) is dropped.
  let generation = 0;

  async function readPage(sort: CommentSort, page: number): Promise<CommentPage> {
    const answer = await client.call((loaded ?? (await loadCommentsContract())).list, {
      query: { targetType: init.targetType, targetId: init.targetId, sort, page, limit: ROOT_PAGE_SIZE },
    });
    return answer.data;
  }

  const pageFields = (pagination: Pagination, total: number) => ({
    page: pagination.page,
    totalPages: pagination.totalPages,
    total,
  });

  return {
    $state,

    /**
     * Reads page 1 again, in `sort` (default: the current one), replacing the list. `viewer` says the
     * request carries the login, so the answer's viewer flags are the viewer's.
     */
    async load(options: { sort?: CommentSort; viewer?: boolean } = {}): Promise<Outcome> {
      const sort = options.sort ?? get().sort;
      const mine = ++generation;
      set({ sort, loading: 'replace', error: null });
      try {
        const data = await readPage(sort, 1);
        if (mine !== generation) return { ok: true };
        const threads = data.items.map(threadOf);
        const viewerKnown = options.viewer ?? get().viewerKnown;
        set({ threads, ...pageFields(data.pagination, data.total), loading: null, viewerKnown });
        return { ok: true };
      } catch (error) {
        if (mine !== generation) return { ok: true };
        const outcome = failed(error);
        set({ loading: null, error: outcome.message });
        return outcome;
      }
    },

    /** Reads the next page of roots and adds it below (roots already shown are not repeated). */
    async loadMore(): Promise<Outcome | Busy> {
      const state = get();
      if (state.loading) return { ok: false, busy: true };
      if (!hasMoreRoots(state)) return { ok: true };
      const mine = generation;
      set({ loading: 'more', error: null });
      try {
        const data = await readPage(state.sort, state.page + 1);
        if (mine !== generation) return { ok: true };
        const shown = new Set(get().threads.map((thread) => thread.comment.id));
        const added = data.items.filter((item) => !shown.has(item.id)).map(threadOf);
        set({
          threads: [...get().threads, ...added],
          ...pageFields(data.pagination, data.total),
          loading: null,
        });
        return { ok: true };
      } catch (error) {
        if (mine !== generation) return { ok: true };
        const outcome = failed(error);
        set({ loading: null, error: outcome.message });
        return outcome;
      }
    },

    /**
     * Shows a comment a link names (`#comment-{id}`) that the loaded pages do not hold: its thread is read
     * and joins the shown ones (below a pinned root), or its replies join the thread already shown.
     * Answers whether the comment is shown now.
     */
    async reveal(id: number): Promise<boolean> {
      if (findComment(get(), id)) return true;
      try {
        const answer = await client.call((loaded ?? (await loadCommentsContract())).thread, { params: { id } });
        const fetched = threadOf(answer.data.thread);
        const shown = get().threads.find((item) => item.comment.id === fetched.comment.id);
        if (shown)
          mapThreads((item) =>
            item === shown ? { ...item, replies: uniqueById([...fetched.replies, ...item.replies]).sort(byAge) } : item,
          );
        else set({ threads: pinnedFirst([fetched, ...get().threads]) });
        return findComment(get(), id) !== null;
      } catch {
        return false;
      }
    },

    /** Reads the next page of a root's replies (the first read replaces the preview, which it contains). */
    async loadReplies(rootId: number): Promise<Outcome | Busy> {
      const thread = get().threads.find((item) => item.comment.id === rootId);
      if (!thread) return { ok: true };
      if (thread.loadingReplies) return { ok: false, busy: true };
      const patchThread = (change: Partial<ThreadState>) =>
        mapThreads((item) => (item.comment.id === rootId ? { ...item, ...change } : item));
      patchThread({ loadingReplies: true });
      try {
        const answer = await client.call((loaded ?? (await loadCommentsContract())).replies, {
          params: { id: rootId },
          query: { page: thread.repliesPage + 1, limit: REPLY_PAGE_SIZE },
        });
        const { items, pagination } = answer.data;
        const current = get().threads.find((item) => item.comment.id === rootId);
        if (!current) return { ok: true };
        patchThread({
          // Newer answers first, so their counts and flags win over what was shown.
          replies: uniqueById([...items, ...current.replies]).sort(byAge),
          repliesPage: pagination.page,
          repliesTotalPages: pagination.totalPages,
          loadingReplies: false,
          comment: { ...current.comment, replyCount: Math.max(pagination.total, 0) },
        });
        return { ok: true };
      } catch (error) {
        patchThread({ loadingReplies: false });
        return failure(error);
      }
    },

    /**
     * Sends a comment: a root when `parent` is left out, else a reply to it (a root or a reply). A new
     * root shows at the top (below a pinned one), a reply at the end of its thread; the counts move.
     */
    async post(text: string, parent?: CommentView): Promise<PostOutcome | Busy> {
      const problem = draftProblem(text);
      if (problem) return { ok: false, problem };
      if (get().posting) return { ok: false, busy: true };
      set({ posting: true });
      try {
        const answer = await client.call((loaded ?? (await loadCommentsContract())).create, {
          body: {
            targetType: init.targetType,
            targetId: init.targetId,
            content: text.trim(),
            ...(parent ? { parentId: parent.id } : {}),
          },
        });
        const comment = answer.data;
        const state = get();
        if (comment.rootId === null) {
          const pinned = state.threads.filter((thread) => thread.comment.pinned);
          const rest = state.threads.filter((thread) => !thread.comment.pinned);
          const fresh: ThreadState = {
            comment,
            replies: [],
            repliesPage: 0,
            repliesTotalPages: 0,
            loadingReplies: false,
          };
          set({
            threads: [...pinned, fresh, ...rest],
            total: state.total + 1,
            posting: false,
            justPosted: comment.id,
            // A section that read nothing yet has this one page now.
            ...(state.page === 0 ? { page: 1, totalPages: 1 } : {}),
          });
        } else {
          set({
            threads: state.threads.map((thread) =>
              thread.comment.id === comment.rootId
                ? {
                    ...thread,
                    comment: { ...thread.comment, replyCount: thread.comment.replyCount + 1 },
                    replies: uniqueById([...thread.replies, comment]).sort(byAge),
                  }
                : thread,
            ),
            total: state.total + 1,
            posting: false,
            justPosted: comment.id,
          });
        }
        return { ok: true, comment, message: answer.message };
      } catch (error) {
        set({ posting: false });
        return failed(error);
      }
    },

    /**
     * Deletes a comment. A root with replies stays in place as deleted; a root without replies and a
     * reply go (and a deleted root whose last reply went goes too).
     */
    async remove(id: number): Promise<ActionOutcome | Busy> {
      const target = findComment(get(), id);
      if (!target) return { ok: true, message: '' };
      if (get().busy[id]) return { ok: false, busy: true };
      setBusy(id, true);
      try {
        const answer = await client.call((loaded ?? (await loadCommentsContract())).remove, { params: { id } });
        const state = get();
        const threads = state.threads.flatMap((thread): ThreadState[] => {
          if (thread.comment.id === id) {
            if (thread.comment.replyCount === 0) return [];
            return [{ ...thread, comment: deletedView(thread.comment) }];
          }
          if (target.rootId !== thread.comment.id) return [thread];
          const replyCount = Math.max(0, thread.comment.replyCount - 1);
          if (thread.comment.deleted && replyCount === 0) return [];
          return [
            {
              ...thread,
              comment: { ...thread.comment, replyCount },
              replies: thread.replies.filter((reply) => reply.id !== id),
            },
          ];
        });
        set({ threads, total: Math.max(0, state.total - 1) });
        setBusy(id, false);
        return { ok: true, message: answer.message };
      } catch (error) {
        setBusy(id, false);
        return failed(error);
      }
    },

    /** Pins a root (the target's one pinned root: another loses its pin and it moves first) or unpins it. */
    async pin(id: number, pinned: boolean): Promise<ActionOutcome | Busy> {
      if (get().busy[id]) return { ok: false, busy: true };
      setBusy(id, true);
      try {
        const answer = await client.call((loaded ?? (await loadCommentsContract())).pin, {
          params: { id },
          body: { pinned },
        });
        const view = answer.data;
        const threads = get().threads.map((thread) =>
          thread.comment.id === id
            ? { ...thread, comment: { ...thread.comment, pinned: view.pinned } }
            : view.pinned && thread.comment.pinned
              ? { ...thread, comment: { ...thread.comment, pinned: false } }
              : thread,
        );
        set({ threads: view.pinned ? pinnedFirst(threads) : threads });
        setBusy(id, false);
        return { ok: true, message: answer.message };
      } catch (error) {
        setBusy(id, false);
        return failed(error);
      }
    },
  };
}

/** A root as it shows once deleted: no text, nothing left to do with it. */
function deletedView(comment: CommentView): CommentView {
  return {
    ...comment,
    content: '',
    deleted: true,
    pinned: false,
    viewer: { isLiked: comment.viewer.isLiked, canDelete: false, canPin: false },
  };
}

export type CommentSection = ReturnType<typeof createCommentSection>;

/** The store of one comment section of the page. */
export const commentSection = (init: CommentSectionInit) => createCommentSection(browserApi, init);
