import { parseMarkers } from '../../shared/comment-markers.ts';
import { COMMENT_PAGE_DEFAULT, type CommentPage } from '../../shared/comments/comments.ts';
import type { TargetType } from '../../shared/targets.ts';
import type { AppContext } from '../../server/context.ts';
import { pageTags } from '../../server/http/page-cache-policy.ts';
import { listComments } from '../../server/modules/comments/comments.service.ts';
import { getEmojiSource } from '../../server/modules/emoji/emoji.service.ts';
import { HttpError } from '../../server/platform/errors.ts';
import { orNotFound } from '../galgame/galgame-routes.ts';

/** What a page's comment section starts with. */
export interface FirstComments {
  page: CommentPage;
  /** The emoji its comments use, resolved (code → image address), so the server HTML shows them. */
  emoji: Record<string, string>;
  /** What it shows, as page-cache tags: the target's comments and the emoji sets used. */
  tags: string[];
}

/** Emoji codes resolved per page at most (a page of 20 threads rarely uses more than a handful). */
const EMOJI_PER_PAGE = 60;

/**
 * The emoji these texts use, resolved (code → image address) so the server HTML shows them, with the
 * page-cache tags of their sets. An emoji that no longer exists is left out: it shows as its text, as
 * in the browser.
 */
export async function resolveEmoji(
  app: Pick<AppContext, 'db' | 'storage'>,
  texts: readonly string[],
): Promise<{ emoji: Record<string, string>; tags: string[] }> {
  const codes = new Set<string>();
  for (const text of texts)
    for (const token of parseMarkers(text))
      if (token.type === 'emoji' && codes.size < EMOJI_PER_PAGE) codes.add(token.code);
  const emoji: Record<string, string> = {};
  const sets = new Set<number>();
  await Promise.all(
    [...codes].map(async (code) => {
      const [set = '', name = ''] = code.split('/');
      try {
        const source = await getEmojiSource(app.db, app.storage, set, name);
        emoji[code] = source.src;
        sets.add(source.emojiSetId);
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 404)) throw error;
      }
    }),
  );
  return { emoji, tags: [...sets].map((id) => pageTags.emojiSet(id)) };
}

/**
 * The first page of a target's comments (hot) as every visitor sees it: no viewer, so a cached page holds
 * nothing of anyone's own (a member's island reads it again with the login). Shared by the requests of a
 * few seconds and dropped when a comment of the target or an emoji set it uses changes. Null when the
 * target takes no comments.
 */
export function firstComments(
  app: Pick<AppContext, 'db' | 'targets' | 'reads' | 'storage'>,
  targetType: TargetType,
  targetId: number,
): Promise<FirstComments | null> {
  return orNotFound(() =>
    app.reads.get(
      `comments:${targetType}:${targetId}:hot:1`,
      async () => {
        const page = await listComments({ db: app.db, targets: app.targets }, null, {
          targetType,
          targetId,
          sort: 'hot',
          page: 1,
          limit: COMMENT_PAGE_DEFAULT,
        });
        const resolved = await resolveEmoji(
          app,
          page.items.flatMap((thread) => [thread, ...thread.replies].map((comment) => comment.content)),
        );
        return {
          page,
          emoji: resolved.emoji,
          tags: [pageTags.comments(targetType, targetId), ...resolved.tags],
        };
      },
      (data) => data.tags,
    ),
  );
}
