import { emojiContract } from '../../../shared/emoji/emoji.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pageTags, pagesChanged } from '../../http/page-cache-policy.ts';
import type { UserRow } from '../users/users.tables.ts';
import {
  addEmojis,
  createEmojiSet,
  deleteEmoji,
  deleteEmojiSet,
  getEmojiSet,
  getEmojiSource,
  listEmojiSets,
  updateEmojiSet,
  type EmojiViewer,
} from './emoji.service.ts';

/** How long browsers and shared caches may keep one emoji's source (renames and deletions show after this). */
const SOURCE_CACHE_CONTROL = 'public, max-age=60';

/** Emoji sets and emojis (spec §7 Emoji). */
export function emojiRoutes(ctx: AppContext) {
  const viewerOf = (user: UserRow): EmojiViewer => ({ id: user.id, group: user.user_group });
  /**
   * A set changed: its shared emoji sources are dropped here at once (the next read in this process sees
   * the change) and in the other processes through the bus.
   */
  const setChanged = async (id: number) => {
    const tags = [pageTags.emojiSet(id)];
    ctx.reads.invalidate(tags);
    await pagesChanged(ctx, tags);
  };

  return contractRoutes(ctx, emojiContract, {
    listSets: async (_c, { user }) => ({ data: await listEmojiSets(ctx, viewerOf(user)) }),

    getSet: async (_c, { query, user }) => ({
      data: await getEmojiSet(ctx, viewerOf(user), { id: query.emojiSetId, name: query.emojiSetName }),
    }),

    getEmoji: async (c, { query }) => {
      const { emojiSetName, emojiName } = query;
      // The same for every reader: one load serves every request for a few seconds.
      const data = await ctx.reads.get(
        `emoji:${emojiSetName}/${emojiName}`,
        () => getEmojiSource(ctx.db, ctx.storage, emojiSetName, emojiName),
        (source) => [pageTags.emojiSet(source.emojiSetId)],
      );
      c.header('Cache-Control', SOURCE_CACHE_CONTROL);
      return { data };
    },

    createSet: async (_c, { body, user }) => ({
      data: await createEmojiSet(ctx, viewerOf(user), body.name),
      message: 'server.emoji.setCreated',
      code: 'CREATED',
      status: 201,
    }),

    addEmojis: async (_c, { body, user }) => {
      const data = await addEmojis(ctx, viewerOf(user), body);
      await setChanged(body.emojiSetId);
      return { data, message: 'server.emoji.emojisAdded' };
    },

    deleteSet: async (_c, { params, user }) => {
      const data = await deleteEmojiSet(ctx, viewerOf(user), params.id);
      await setChanged(params.id);
      return { data, message: 'server.emoji.setDeleted' };
    },

    deleteEmoji: async (_c, { params, body, user }) => {
      const data = await deleteEmoji(ctx, viewerOf(user), params.id, body.emojiSetId);
      await setChanged(body.emojiSetId);
      return { data, message: 'server.emoji.emojiDeleted' };
    },

    updateSet: async (_c, { params, body, user }) => {
      const data = await updateEmojiSet(ctx, viewerOf(user), params.id, body.updatedEmojiSet);
      await setChanged(params.id);
      return { data, message: 'server.emoji.setUpdated' };
    },
  });
}
