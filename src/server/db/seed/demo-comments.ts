import { sql } from 'kysely';
import type { TargetRef } from '../../../shared/targets.ts';
import { appTargets } from '../../modules/index.ts';
import { queueOnly } from '../../modules/notifications/notifications.queue.ts';
import { like } from '../../modules/reactions/likes.service.ts';
import type { TargetRegistry } from '../../platform/targets/targets.ts';
import type { Db } from '../database.ts';
import { nextId } from '../ids.ts';

// Demo comments and replies by the demo accounts: on the demo games (found by their fixed Bangumi ids),
// and on the first published posts and articles when the community seed has written some. Fixed dates;
// a comment already there (same author, item and text) is not written again, so the seed can run again.

type DemoUser = 'hikari_demo' | 'hikari_creator' | 'hikari_admin';

interface DemoComment {
  /** How replies name the comment they answer. */
  key: string;
  by: DemoUser;
  content: string;
  at: string;
  /** The key of the comment answered (a root, or a reply whose root the reply joins). */
  parent?: string;
  likes?: DemoUser[];
  pinned?: boolean;
}

/**
 * A time in the week of comments the seed tells, written as a day of November 2026; the seed moves the
 * whole week so that it ends just before the moment it runs (`shiftedTo`).
 */
const at = (day: number, hour: number, minute = 0) =>
  `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
const STORY_END = Date.parse('2026-11-26T00:00:00.000Z');
const shiftedTo = (now: Date, thread: readonly DemoComment[]): DemoComment[] =>
  thread.map((comment) => ({
    ...comment,
    at: new Date(Date.parse(comment.at) - STORY_END + now.getTime()).toISOString(),
  }));

/** Comments per demo game, by the game's Bangumi id. */
const onGames: Record<number, DemoComment[]> = {
  [-1001]: [
    {
      key: 'loop',
      by: 'hikari_demo',
      content:
        '第三次回到八月二十四日的时候我才反应过来那段对话的意思，后劲太大了[emoji:hikari/cry]\n夏日祭那晚的烟花 CG 建议全屏看。',
      at: at(20, 21),
      likes: ['hikari_creator', 'hikari_admin'],
    },
    {
      key: 'loop-1',
      by: 'hikari_creator',
      parent: 'loop',
      content: '同感！神社那条线的伏笔埋得特别早，二周目再看开头会起鸡皮疙瘩。',
      at: at(20, 22, 5),
      likes: ['hikari_demo'],
    },
    {
      key: 'loop-2',
      by: 'hikari_demo',
      parent: 'loop-1',
      content: '对，奶奶那句“明天见”我一周目完全没在意 [emoji:hikari/surprised]',
      at: at(20, 22, 30),
    },
    {
      key: 'guide',
      by: 'hikari_admin',
      content: '提醒一下：讨论结局请注意剧透，评论区里不要直接写出时间循环的原因哦。',
      at: at(21, 9),
      pinned: true,
    },
    {
      key: 'bgm',
      by: 'hikari_creator',
      content: '蝉鸣混着钢琴的主题曲循环了一整天，原声带什么时候能补票。',
      at: at(22, 19, 40),
    },
  ],
  [-1003]: [
    {
      key: 'detective',
      by: 'hikari_creator',
      content: '推理部分比想象中扎实，线索基本都给到了玩家面前，不是那种靠作者喂答案的类型。',
      at: at(18, 20),
      likes: ['hikari_demo'],
    },
    {
      key: 'detective-1',
      by: 'hikari_admin',
      parent: 'detective',
      content: '第三章的密室我卡了好久，最后是看雨声的描写才想通的[emoji:hikari/sweat]',
      at: at(18, 23, 10),
    },
  ],
  [-1004]: [
    {
      key: 'planetarium',
      by: 'hikari_demo',
      content: '终末题材却一点都不压抑，最后一晚一起看人造星空的那段太温柔了[emoji:hikari/heart]',
      at: at(23, 0, 20),
      likes: ['hikari_creator'],
    },
  ],
  [-1005]: [
    {
      key: 'stage',
      by: 'hikari_admin',
      content: '节奏游戏部分意外地好玩，简单难度也能全连，推荐给不擅长音游的朋友。',
      at: at(24, 15),
    },
    {
      key: 'stage-1',
      by: 'hikari_demo',
      parent: 'stage',
      content: '打完一首就想再来一首，停不下来 [emoji:hikari/laugh]',
      at: at(24, 18, 45),
    },
  ],
};

/** Comments on each of the first published posts and articles (when the community seed wrote some). */
const onCommunity = (
  type: 'post' | 'article',
  index: number,
  /** Between the item's publishing and now: the comment, then its reply. */
  times: readonly [string, string],
): DemoComment[] => [
  {
    key: `${type}-${index}`,
    by: index % 2 === 0 ? 'hikari_demo' : 'hikari_creator',
    content:
      type === 'article' ? '写得很用心，收藏了，等周末慢慢再读一遍。' : '同好+1！这种话题能聊一整晚[emoji:hikari/star]',
    at: times[0],
    likes: ['hikari_admin'],
  },
  {
    key: `${type}-${index}-1`,
    by: 'hikari_admin',
    parent: `${type}-${index}`,
    content: '欢迎多来社区分享感想～',
    at: times[1],
  },
];

/** The ids of the first published items of a community table, or none when the table is not there. */
async function firstPublished(
  db: Db,
  table: 'post' | 'article',
  count: number,
): Promise<{ id: number; publishedAt: string }[]> {
  try {
    const { rows } = await sql<{
      id: number | string;
      published_at: string;
    }>`select id, published_at from ${sql.table(table)} where status = 'published' order by id limit ${count}`.execute(
      db,
    );
    return rows.map((row) => ({ id: Number(row.id), publishedAt: String(row.published_at) }));
  } catch {
    // The community module is not installed: nothing to comment on.
    return [];
  }
}

/** Writes one thread of comments on one item, each unless it is already there; answers how many were written. */
async function writeComments(
  db: Db,
  targets: TargetRegistry,
  users: ReadonlyMap<DemoUser, string>,
  ref: TargetRef,
  comments: readonly DemoComment[],
): Promise<number> {
  const ids = new Map<string, { id: number; rootId: number | null; userId: string }>();
  let written = 0;
  for (const comment of comments) {
    const userId = users.get(comment.by);
    const parent = comment.parent === undefined ? null : ids.get(comment.parent);
    if (!userId || parent === undefined) continue;
    const existing = await db
      .selectFrom('comment')
      .select(['id', 'root_id'])
      .where('user_id', '=', userId)
      .where('target_type', '=', ref.type)
      .where('target_id', '=', ref.id)
      .where('content', '=', comment.content)
      .executeTakeFirst();
    if (existing) {
      ids.set(comment.key, { id: existing.id, rootId: existing.root_id, userId });
      continue;
    }
    const rootId = parent ? (parent.rootId ?? parent.id) : null;
    const id = await db.transaction().execute(async (trx) => {
      const commentId = await nextId(trx, 'comment_id');
      await trx
        .insertInto('comment')
        .values({
          id: commentId,
          target_type: ref.type,
          target_id: ref.id,
          user_id: userId,
          root_id: rootId,
          parent_id: parent?.id ?? null,
          reply_to_user_id: parent?.userId ?? null,
          content: comment.content,
          pinned: comment.pinned ? 1 : 0,
          created_at: comment.at,
          deleted_at: null,
        })
        .execute();
      await targets.adjust(trx, ref, 'comment', 1);
      if (rootId !== null)
        await trx
          .updateTable('comment')
          .set((eb) => ({ reply_count: eb('reply_count', '+', 1) }))
          .where('id', '=', rootId)
          .execute();
      return commentId;
    });
    ids.set(comment.key, { id, rootId, userId });
    written++;
    for (const liker of comment.likes ?? []) {
      const likerId = users.get(liker);
      if (likerId)
        await like(
          { db, targets, jobs: queueOnly },
          { id: likerId, group: 'user' },
          { type: 'comment', id },
          new Date(comment.at),
        );
    }
  }
  return written;
}

/**
 * The demo comments. Runs after the accounts, the catalogue and the community seed; items that are not
 * there (a game renamed away, no community module) are skipped.
 */
export async function seedDemoComments(db: Db, now = new Date()): Promise<{ comments: number }> {
  const targets = appTargets();
  const accounts = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('name', 'in', ['hikari_demo', 'hikari_creator', 'hikari_admin'])
    .execute();
  const users = new Map(accounts.map((a) => [a.name as DemoUser, a.id]));
  let comments = 0;
  for (const [bangumiId, thread] of Object.entries(onGames)) {
    const game = await db
      .selectFrom('galgame')
      .select('id')
      .where('bangumi_id', '=', Number(bangumiId))
      .executeTakeFirst();
    if (game)
      comments += await writeComments(db, targets, users, { type: 'galgame', id: game.id }, shiftedTo(now, thread));
  }
  for (const [type, count] of [
    ['post', 3],
    ['article', 2],
  ] as const) {
    if (!targets.keeps(type, 'comment')) continue;
    const items = await firstPublished(db, type, count);
    const visible = await targets.find(
      db,
      type,
      items.map((item) => item.id),
      null,
    );
    for (const [index, item] of items.filter((i) => visible.has(i.id)).entries()) {
      const published = Date.parse(item.publishedAt);
      const between = (share: number) =>
        new Date(published + Math.max(0, now.getTime() - published) * share).toISOString();
      comments += await writeComments(
        db,
        targets,
        users,
        { type, id: item.id },
        onCommunity(type, index, [between(0.5), between(0.75)]),
      );
    }
  }
  return { comments };
}
