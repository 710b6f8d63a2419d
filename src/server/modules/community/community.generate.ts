import type { JSONContent } from '@tiptap/core';
import { sql, type Insertable } from 'kysely';
import { topicKey, type ContentStatus, type ContentType } from '../../../shared/community/community.ts';
import type { CommentTable } from '../comments/comments.tables.ts';
import type { Db, Trx } from '../../db/database.ts';
import { reserveIds } from '../../db/ids.ts';
import { demoArticles, demoSections, demoTopics } from '../../db/seed/demo-community.ts';
import type { FavoriteTable } from '../catalogue/catalogue.tables.ts';
import type { ReactionLikeTable } from '../reactions/reactions.tables.ts';
import { nameSkeleton } from '../users/name-skeleton.ts';
import type { UsersTable } from '../users/users.tables.ts';
import { nameKey } from '../users/users.service.ts';
import { renderArticleBody } from './article-body.ts';
import type {
  ArticleTable,
  CommunityFollowTable,
  ContentTopicTable,
  ContentWorkTable,
  PostTable,
} from './community.tables.ts';
import { excerptOf } from './content.service.ts';
import { postExcerpt } from './posts.service.ts';
import { mulberry32 } from '../../db/seeded-random.ts';

// Generates a large synthetic community for load tests and query-plan checks (npm run
// community:generate): members, sections, topics, follows, posts and articles over two years, with
// their likes, favourites and comments as rows, and one "big thread" post with exactly 200 comments.
// Deterministic for a given seed and `now` on the same starting database. Rows are written in batches,
// one transaction per batch, with ids reserved from the id counters; the counts that summarise rows
// (sections, topics, authors, followers) are recounted from the rows at the end, so they are exact.

/** Every generated member signs in with this password (hashed once per run). */
export const GENERATED_PASSWORD = 'hikari-generated-2026';
/** Generated members' e-mail addresses end with this domain. */
export const GENERATED_EMAIL_DOMAIN = 'gen.hikari.local';
/** The big thread's comments: roots and replies. */
export const BIG_THREAD_ROOTS = 120;
export const BIG_THREAD_REPLIES = 80;

const DAY = 24 * 60 * 60_000;
const SPAN_MS = 730 * DAY;
/** Bound parameters per INSERT: well under SQLite's and PostgreSQL's limits. */
const MAX_PARAMS = 6000;

// ── Words ─────────────────────────────────────────────────────────────────────────────────────────

const NICK_HEADS = ['夏空', '星海', '雪见', '月下', '樱花', '雨音', '风铃', '晚星', '白鲸', '青鸟'];
const NICK_HEADS_2 = ['琥珀', '薄荷', '柚子', '橘猫', '海盐', '银河', '极光', '晨曦', '深夜', '流萤'];
const NICK_TAILS = [
  '旅人',
  '读者',
  '玩家',
  '信使',
  '观测者',
  '咸鱼',
  '少年',
  '少女',
  '画师',
  '书虫',
  '路人',
  '学徒',
  '船长',
];
const SIGNATURES = [
  '在夏天结束之前，把想玩的都玩完。',
  '汉化组在读，进度随缘。',
  '只推 True End。',
  '画画的，偶尔写点长评。',
  '',
  '',
  '',
];

const TITLE_SYLLABLES = [
  '夏',
  '空',
  '星',
  '雪',
  '月',
  '花',
  '夜',
  '海',
  '风',
  '光',
  '梦',
  '樱',
  '雨',
  '虹',
  '歌',
  '翼',
];
const TITLE_ENDINGS = ['之丘', '物语', '的约定', '回忆录', '奏鸣曲', '彼方', '之夏', '庭园', '列车', '信标'];

const TOPIC_HEADS = [
  '夏日',
  '雪国',
  '星空',
  '校园',
  '奇幻',
  '科幻',
  '悬疑',
  '致郁',
  '恋爱',
  '百合',
  '群像',
  '循环',
  '音乐',
  '偶像',
  '魔法',
  '和风',
  '末日',
  '侦探',
  '怪谈',
  '日常',
  '运动',
  '料理',
  '旅行',
  '电车',
  '神社',
  '海边',
  '蒸汽朋克',
  '赛博',
  '古风',
  '民俗',
];
const TOPIC_TAILS = [
  '讨论',
  '杂谈',
  '考据',
  '同好会',
  '速报',
  '感想',
  '攻略',
  '语录',
  '名场面',
  '补完计划',
  '安利',
  '吐槽',
  '资源',
  '新作',
  '周边',
  '画集',
  '配乐',
  '声优',
  '彩蛋',
  '设定集',
];
const TOPIC_COLORS = ['#ff6b81', '#39c5bb', '#7c6cf2', '#f5a524', '#4caf50', '#e91e63', '#03a9f4', '#607d8b'];

const POST_TITLES = [
  '《{g}》通关感想：后劲比想象中大',
  '求助：《{g}》第二章的分支怎么进？',
  '《{g}》的主题曲真的太好听了',
  '有没有和《{g}》类似的作品推荐？',
  '【剧透】《{g}》真结局的伏笔整理',
  '《{g}》汉化补丁更新了，修正了不少错译',
  '刚入坑，《{g}》适合新人吗？',
  '《{g}》和前作相比进步在哪里',
  '聊聊《{g}》里最喜欢的角色',
  '《{g}》的画风变化大家怎么看',
  '摸鱼成果：《{g}》同人图一张',
  '《{g}》全路线攻略顺序建议',
  '周末玩什么？来推荐一下最近在玩的作品',
  '萌新求助：汉化补丁打不上怎么办',
  '大家都是怎么安排游戏时间的',
  '晒一下我的收藏架',
  '这个月的新作你们入了哪几部',
  '深夜睡不着，来聊聊最让你哭的一段剧情',
  '求一部轻小说的书名，只记得封面是蓝色的',
  '文库本和电子版到底买哪个',
];
const ARTICLE_TITLES = [
  '《{g}》长评：一个关于“明天”的故事',
  '《{g}》全角色路线解析',
  '从《{g}》看这几年剧本写法的变化',
  '《{g}》入坑指南：先玩哪部、哪些支线不能错过',
  '《{g}》配乐赏析',
  '《{g}》与原作小说的改编对比',
  '写给新人的 Galgame 入门清单',
  '汉化组是怎样工作的：从提取文本到封包',
  '这一年我读过的十部轻小说',
  '同人创作新手的第一年',
];
const SENTENCES = [
  '前期节奏有点慢，但坚持下来完全值得。',
  '配乐和场景的搭配非常用心，尤其是雨天的那几段。',
  '女主角的台词写得很克制，很多情绪都留给玩家自己体会。',
  '第二次循环之后剧情明显加速，伏笔开始一个个回收。',
  '个人觉得真结局稍微有点仓促，但整体瑕不掩瑜。',
  '系统方面有快进和回看，还算方便，就是存档位少了点。',
  '汉化质量不错，专有名词统一，几乎没有看到错字。',
  '推荐先走日常线，再走主线，体验会完整很多。',
  '立绘很精致，不过部分 CG 的透视有点奇怪。',
  '有没有人和我一样，在结尾那段直接哭出来了？',
  '这部作品的世界观设定很完整，细节经得起推敲。',
  '支线的分量比主线还足，写手明显很用心。',
  '看完之后去补了原作小说，发现很多地方做了改编。',
  '如果你喜欢慢热的故事，这部一定不要错过。',
  '求同好！身边没人玩这个，只能来论坛说说。',
  '一周目只看了一条线，二周目才发现选项设计这么巧妙。',
  '音乐鉴赏模式里的钢琴版是隐藏曲目，通关后才解锁。',
  '今天终于把全收集做完了，撒花！',
  '作者在后记里说这是他最想写的故事，能感受到。',
  '中间有一段推理稍微有点牵强，但不影响整体观感。',
  '画面是这几年里最喜欢的一部，每一帧都可以当壁纸。',
  '角色之间的互动特别自然，像是真的认识了一群朋友。',
  '建议戴耳机玩，环境音的细节非常多。',
  '体验版就已经很惊艳了，正式版只会更好。',
  '新人入坑的话，可以从这部开始，难度和篇幅都很友好。',
  '我更喜欢前作的氛围，这一部商业味道重了一点。',
  '结局的选择让我想了很久，也许没有绝对正确的答案。',
  '期待官方出设定集，想知道更多幕后的故事。',
];
const COMMENTS = [
  '同感！',
  '+1，这段我也印象很深。',
  '谢谢分享，已收藏。',
  '楼主说得太对了。',
  '我是先走的主线，感觉也还行。',
  '求问在哪里可以买到实体版？',
  '哈哈哈哈这个梗我懂',
  '二周目再看开头真的会起鸡皮疙瘩。',
  '已经在愿望单里了，等打折入。',
  '配乐真的绝了，循环了一整天。',
  '这个角色的结局我到现在都意难平。',
  '汉化组辛苦了！',
  '请问补丁支持 Steam 版吗？',
  '路过，顺手点个赞。',
  '剧透警告啊喂',
  '同意楼上，节奏确实慢了点。',
  '第一次看到这么认真的长评。',
  '我也卡在那里了，后来是看攻略才过的。',
  '画得好好！求更多。',
  '这部我玩了三遍，每次都有新发现。',
  '不太同意，我觉得结局处理得刚刚好，留白才是精髓。',
  '想问一下大概要玩多久？最近时间不太多。',
  '新人表示看完更想入坑了。',
  '楼主的分析很到位，尤其是关于第三章那段。',
];
const EMOJIS = ['smile', 'laugh', 'cry', 'heart', 'star', 'question', 'sweat', 'surprised', 'wink'];

// ── Helpers ───────────────────────────────────────────────────────────────────────────────────────

type Rand = () => number;

/** Picks by weight: a cumulative table searched by bisection. */
function weighted<T>(items: readonly T[], weights: readonly number[], rand: Rand): () => T {
  const cumulative: number[] = [];
  let total = 0;
  for (const weight of weights) cumulative.push((total += weight));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

/** A copy of `list` in an order fixed by the seed (Fisher–Yates). */
function shuffled<T>(list: readonly T[], rand: Rand): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Inserts rows in statements of at most MAX_PARAMS bound values. */
async function insertAll<R extends object>(rows: readonly R[], write: (chunk: R[]) => Promise<unknown>) {
  const first = rows[0];
  if (!first) return;
  const size = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(first).length));
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

const iso = (ms: number) => new Date(ms).toISOString();

// ── Options and result ────────────────────────────────────────────────────────────────────────────

export interface CommunityGenerateOptions {
  /** Members to add (default 2 000). */
  users?: number;
  /** Posts, the big thread not included (default 50 000). */
  posts?: number;
  /** Articles (default 5 000). */
  articles?: number;
  /** Topics there should be in all (default 500); existing ones count. */
  topics?: number;
  seed?: number;
  /** The newest moment of the generated history (default: now); with the seed, it fixes the data. */
  now?: Date;
  /** The argon2 hash every generated member gets (of GENERATED_PASSWORD). */
  passwordHash: string;
  /** The public address of an image-bed key (`storage.publicUrl`). */
  imageUrl: (key: string) => string;
  /** Posts or articles per transaction (default 500). */
  batch?: number;
  onProgress?: (step: string, done: number, total: number) => void;
}

export interface ContentCounts {
  published: number;
  drafts: number;
  deleted: number;
}

export interface CommunityGenerateResult {
  users: { count: number; firstUserId: number; lastUserId: number; sampleName: string };
  sections: { total: number; created: number };
  topics: { total: number; created: number };
  follows: number;
  posts: ContentCounts;
  articles: ContentCounts;
  comments: number;
  likes: number;
  favorites: number;
  bigThread: { postId: number; comments: number; roots: number; replies: number; likes: number; commentLikes: number };
}

// ── The generator ─────────────────────────────────────────────────────────────────────────────────

interface Member {
  id: string;
  userId: number;
}

interface Place {
  id: number;
  name: string;
}

/** What one batch writes, collected before its transaction. */
interface Batch {
  posts: Insertable<PostTable>[];
  articles: Insertable<ArticleTable>[];
  topics: Insertable<ContentTopicTable>[];
  works: Insertable<ContentWorkTable>[];
  likes: Insertable<ReactionLikeTable>[];
  favorites: Omit<Insertable<FavoriteTable>, 'id'>[];
  comments: (Omit<Insertable<CommentTable>, 'id' | 'root_id' | 'parent_id'> & {
    key: number;
    rootKey: number | null;
    parentKey: number | null;
  })[];
  commentLikes: { commentKey: number; user_id: string; created_at: string }[];
}

const emptyBatch = (): Batch => ({
  posts: [],
  articles: [],
  topics: [],
  works: [],
  likes: [],
  favorites: [],
  comments: [],
  commentLikes: [],
});

/**
 * Adds a big synthetic community to the database: `users` members, the demo sections when there are
 * none, topics up to `topics`, follows, `posts` posts and `articles` articles published over the two
 * years before `now` (a few drafts and deleted ones among them), with likes, favourites and comments
 * as rows, and one big thread: a post with exactly BIG_THREAD_ROOTS + BIG_THREAD_REPLIES comments.
 */
export async function generateCommunity(db: Db, options: CommunityGenerateOptions): Promise<CommunityGenerateResult> {
  const rand = mulberry32(options.seed ?? 2026);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const hex = (words: number) =>
    Array.from({ length: words }, () =>
      Math.floor(rand() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
  const nowMs = (options.now ?? new Date()).getTime();
  const startMs = nowMs - SPAN_MS;
  const batchSize = options.batch ?? 500;
  const userCount = options.users ?? 2000;
  const postCount = options.posts ?? 50_000;
  const articleCount = options.articles ?? 5000;
  const topicTotal = options.topics ?? 500;
  const progress = options.onProgress ?? (() => undefined);
  if (userCount < 1) throw new Error('at least one member is needed to write anything');

  // Members: the first ones write and like the most (a few very active members, many quiet ones).
  const firstUserId = await reserveIds(db, 'user_id', userCount);
  const members: Member[] = [];
  const userRows: Insertable<UsersTable>[] = [];
  for (let i = 0; i < userCount; i++) {
    const userId = firstUserId + i;
    const head = i % 2 === 0 ? pick(NICK_HEADS) : pick(NICK_HEADS_2);
    const name = `${head}${pick(NICK_TAILS)}${userId}`;
    const joined = iso(startMs - rand() * 90 * DAY);
    const member = { id: hex(3), userId };
    members.push(member);
    userRows.push({
      id: member.id,
      user_id: userId,
      name,
      name_key: nameKey(name),
      name_skeleton: nameSkeleton(name),
      email: `u${userId}@${GENERATED_EMAIL_DOMAIN}`,
      password_hash: options.passwordHash,
      signature: pick(SIGNATURES),
      user_setting: '{}',
      password_changed_at: joined.replace(/\.\d{3}Z$/, '.000Z'),
      created_at: joined,
      updated_at: joined,
    });
  }
  await db
    .transaction()
    .execute((trx) => insertAll(userRows, (chunk) => trx.insertInto('users').values(chunk).execute()));
  progress('members', userCount, userCount);
  const author = () => members[Math.floor(rand() ** 2.2 * members.length)] as Member;
  const fan = () => members[Math.floor(rand() ** 1.4 * members.length)] as Member;
  /** `count` different members (at most all of them). */
  const distinctMembers = (count: number): Member[] => {
    const wanted = Math.min(count, members.length);
    const chosen = new Map<string, Member>();
    while (chosen.size < wanted) {
      const member =
        chosen.size > members.length / 2 ? (members[Math.floor(rand() * members.length)] as Member) : fan();
      chosen.set(member.id, member);
    }
    return [...chosen.values()];
  };

  // Sections: the ones there are, or the demo's six.
  let sections: Place[] = await db
    .selectFrom('section')
    .select(['id', 'name'])
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  let sectionsCreated = 0;
  if (sections.length === 0) {
    const first = await reserveIds(db, 'section_id', demoSections.length);
    const at = iso(startMs - 120 * DAY);
    await db
      .insertInto('section')
      .values(demoSections.map((s, i) => ({ id: first + i, ...s, sort_order: i, created_at: at, updated_at: at })))
      .execute();
    sections = demoSections.map((s, i) => ({ id: first + i, name: s.name }));
    sectionsCreated = sections.length;
  }
  // Busy sections and quiet ones, as on a real forum; unknown names get a middling share.
  const SECTION_WEIGHTS: Record<string, number> = {
    综合讨论: 30,
    'Galgame 讨论': 36,
    轻小说讨论: 14,
    汉化与资源: 10,
    同人创作: 8,
    站务公告: 2,
  };
  const sectionWeights = sections.map((s) => SECTION_WEIGHTS[s.name] ?? 10);
  const pickSection = weighted(sections, sectionWeights, rand);
  const busiest = sections[sectionWeights.indexOf(Math.max(...sectionWeights))] as Place;

  // Topics: the demo's names first, then made-up ones, until there are `topicTotal`.
  const existingTopics = await db.selectFrom('topic').select(['id', 'name', 'name_key']).execute();
  const keys = new Set(existingTopics.map((t) => t.name_key));
  const newTopics: { name: string; description: string; color: string }[] = [];
  const wantedNew = Math.max(0, topicTotal - existingTopics.length);
  const candidates = [
    ...demoTopics,
    ...TOPIC_HEADS.flatMap((head) =>
      TOPIC_TAILS.map((tail) => ({ name: `${head}${tail}`, description: '', color: '' })),
    ),
  ];
  for (const candidate of candidates) {
    if (newTopics.length >= wantedNew) break;
    if (keys.has(topicKey(candidate.name))) continue;
    keys.add(topicKey(candidate.name));
    newTopics.push({ ...candidate, color: candidate.color || pick(TOPIC_COLORS) });
  }
  for (let n = 1; newTopics.length < wantedNew; n++) {
    const name = `${pick(TOPIC_HEADS)}${pick(TOPIC_TAILS)}${n}`;
    if (keys.has(topicKey(name))) continue;
    keys.add(topicKey(name));
    newTopics.push({ name, description: '', color: pick(TOPIC_COLORS) });
  }
  let topics: Place[] = existingTopics.map((t) => ({ id: t.id, name: t.name }));
  if (newTopics.length > 0) {
    const first = await reserveIds(db, 'topic_id', newTopics.length);
    const at = iso(startMs - 100 * DAY);
    const rows = newTopics.map((t, i) => ({
      id: first + i,
      name: t.name,
      name_key: topicKey(t.name),
      description: t.description,
      color: t.color,
      created_at: at,
      updated_at: at,
    }));
    await db
      .transaction()
      .execute((trx) => insertAll(rows, (chunk) => trx.insertInto('topic').values(chunk).execute()));
    topics = [...topics, ...rows.map((r) => ({ id: r.id, name: r.name }))];
  }
  // Popularity falls off with rank (Zipf-like), in an order shuffled by the seed.
  const ranked = shuffled(topics, rand);
  const pickTopic = weighted(
    ranked,
    ranked.map((_, rank) => 1 / (rank + 1) ** 0.9),
    rand,
  );
  const topicsFor = (count: number): Place[] => {
    const chosen = new Map<number, Place>();
    for (let tries = 0; chosen.size < Math.min(count, topics.length) && tries < 50; tries++) {
      const topic = pickTopic();
      chosen.set(topic.id, topic);
    }
    return [...chosen.values()];
  };
  const lastUsed = new Map<number, string>();
  progress('topics', topics.length, topics.length);

  // Follows: most members follow a section or two and a few topics.
  const follows: Insertable<CommunityFollowTable>[] = [];
  for (const member of members) {
    const at = iso(startMs + rand() * SPAN_MS);
    const followed = new Set<string>();
    for (let i = Math.floor(rand() * 4); i > 0; i--) followed.add(`section:${pickSection().id}`);
    for (let i = Math.floor(rand() ** 2 * 8); i > 0; i--) followed.add(`topic:${pickTopic().id}`);
    for (const key of followed) {
      const [type, id] = key.split(':') as ['section' | 'topic', string];
      follows.push({ user_id: member.id, target_type: type, target_id: Number(id), created_at: at });
    }
  }
  await db
    .transaction()
    .execute((trx) => insertAll(follows, (chunk) => trx.insertInto('community_follow').values(chunk).execute()));

  // Works posts are about: published games, when the catalogue has some.
  const games = await db
    .selectFrom('galgame')
    .select(['id', 'title_zh'])
    .where('status', '=', 'published')
    .orderBy('id')
    .limit(5000)
    .execute();
  const madeUpTitle = () => `${pick(TITLE_SYLLABLES)}${pick(TITLE_SYLLABLES)}${pick(TITLE_ENDINGS)}`;

  // Article bodies: rendered once per template (the demo's articles and two long ones), never per row.
  const templates = [...demoArticles.map((a) => ({ body: a.body, summary: a.summary })), ...longTemplates(options)].map(
    (template) => {
      const rendered = renderArticleBody(template.body);
      return {
        body: JSON.stringify(rendered.doc),
        body_html: rendered.html,
        body_text: rendered.text,
        summary: template.summary,
        excerpt: excerptOf(template.summary || rendered.text),
      };
    },
  );

  const sentences = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => pick(SENTENCES)).join('');
  const emoji = () => `[emoji:hikari/${pick(EMOJIS)}]`;
  const postText = (member: Member, long: boolean): string => {
    const lines = Array.from({ length: long ? 8 + Math.floor(rand() * 6) : 1 + Math.floor(rand() ** 2 * 5) }, () =>
      sentences(1, 4),
    );
    if (rand() < 0.35) lines[lines.length - 1] += emoji();
    if (rand() < 0.08) lines.push(`[img]${options.imageUrl(`post/${member.userId}/${hex(2)}.webp`)}[/img]`);
    return lines.join('\n');
  };
  const commentText = (member: Member): string => {
    let text = rand() < 0.6 ? pick(COMMENTS) : `${pick(COMMENTS)}${sentences(1, 3)}`;
    if (rand() < 0.3) text += emoji();
    if (rand() < 0.05) text += `\n[img]${options.imageUrl(`comment/${member.userId}/${hex(2)}.webp`)}[/img]`;
    return text;
  };

  /** A title for the item, naming a game (linked as a work when the catalogue has it). */
  const titleAndWorks = (templatesOf: readonly string[]) => {
    const template = pick(templatesOf);
    const works: number[] = [];
    let name = madeUpTitle();
    if (template.includes('{g}') && games.length > 0 && rand() < 0.7) {
      const game = pick(games);
      name = game.title_zh || name;
      works.push(game.id);
      if (rand() < 0.2) works.push(pick(games).id);
    }
    return { title: template.replace('{g}', name).slice(0, 100), works: [...new Set(works)] };
  };

  const totals = { likes: 0, favorites: 0, comments: 0 };

  /**
   * Comments of one item: `count` of them after `fromMs`, roots and replies mixed (a reply answers its
   * root or another reply of it), a few deleted. Answers how many are visible.
   */
  const addComments = (batch: Batch, type: ContentType, id: number, fromMs: number, count: number): number => {
    const times = Array.from({ length: count }, () => fromMs + rand() ** 3 * Math.min(nowMs - fromMs, 60 * DAY)).sort(
      (a, b) => a - b,
    );
    const roots: { key: number; author: Member; replies: { key: number; author: Member }[] }[] = [];
    let visible = 0;
    for (const at of times) {
      const member = author();
      const key = batch.comments.length;
      const deleted = rand() < 0.01;
      const root = roots.length > 0 && rand() < 0.35 ? pick(roots) : null;
      const answered = root && root.replies.length > 0 && rand() < 0.4 ? pick(root.replies) : root;
      batch.comments.push({
        key,
        rootKey: root?.key ?? null,
        parentKey: answered?.key ?? null,
        target_type: type,
        target_id: id,
        user_id: member.id,
        reply_to_user_id: answered?.author.id ?? null,
        content: commentText(member),
        like_count: 0,
        reply_count: 0,
        status: deleted ? 'deleted' : 'visible',
        created_at: iso(at),
        deleted_at: deleted ? iso(Math.min(nowMs, at + DAY)) : null,
      });
      if (!deleted) {
        visible++;
        if (root) {
          const rootRow = batch.comments[root.key];
          if (rootRow) rootRow.reply_count = Number(rootRow.reply_count ?? 0) + 1;
        }
        const likes = Math.floor(rand() ** 5 * 10);
        for (const liker of distinctMembers(likes))
          batch.commentLikes.push({ commentKey: key, user_id: liker.id, created_at: iso(at + rand() * (nowMs - at)) });
      }
      if (root) root.replies.push({ key, author: member });
      else roots.push({ key, author: member, replies: [] });
    }
    return visible;
  };

  /** Likes and favourites of one published item, as rows. */
  const addReactions = (
    batch: Batch,
    type: ContentType,
    id: number,
    fromMs: number,
    likes: number,
    favorites: number,
  ) => {
    const later = () => iso(fromMs + rand() ** 2 * (nowMs - fromMs));
    for (const member of distinctMembers(likes))
      batch.likes.push({ user_id: member.id, target_type: type, target_id: id, created_at: later() });
    for (const member of distinctMembers(favorites))
      batch.favorites.push({ user_id: member.id, item_type: type, item_id: id, created_at: later() });
  };

  /** Writes one batch in one transaction: the items, then what points at them. */
  const write = async (batch: Batch) => {
    await db.transaction().execute(async (trx) => {
      await insertAll(batch.posts, (chunk) => trx.insertInto('post').values(chunk).execute());
      await insertAll(batch.articles, (chunk) => trx.insertInto('article').values(chunk).execute());
      await insertAll(batch.topics, (chunk) => trx.insertInto('content_topic').values(chunk).execute());
      await insertAll(batch.works, (chunk) => trx.insertInto('content_work').values(chunk).execute());
      await insertAll(batch.likes, (chunk) => trx.insertInto('reaction_like').values(chunk).execute());
      if (batch.favorites.length > 0) {
        const first = await reserveIds(trx, 'favorite_id', batch.favorites.length);
        const rows = batch.favorites.map((f, i) => ({ ...f, id: first + i }));
        await insertAll(rows, (chunk) => trx.insertInto('favorite').values(chunk).execute());
      }
      await writeComments(trx, batch);
    });
    totals.likes += batch.likes.length + batch.commentLikes.length;
    totals.favorites += batch.favorites.length;
    totals.comments += batch.comments.length;
  };

  /** Columns both kinds share, and the rows that hang off a published item. */
  const contentRow = (batch: Batch, type: ContentType, id: number, atMs: number, titles: readonly string[]) => {
    const member = author();
    const roll = rand();
    const status: ContentStatus = roll < 0.03 ? 'draft' : roll < 0.04 ? 'deleted' : 'published';
    const { title, works } = titleAndWorks(titles);
    const named = topicsFor(Math.floor(rand() ** 1.5 * 4));
    const section = status === 'draft' && rand() < 0.3 ? null : pickSection();
    const published = status !== 'draft';
    const edited = published && rand() < 0.05 ? iso(Math.min(nowMs, atMs + rand() * 3 * DAY)) : null;
    for (const [position, workId] of works.entries())
      batch.works.push({ content_type: type, content_id: id, work_type: 'galgame', work_id: workId, position });
    const heat = rand() ** 3 * (rand() < 0.01 ? 6 : 1) * (type === 'article' ? 2 : 1);
    let likes = 0;
    let favorites = 0;
    let comments = 0;
    if (status === 'published') {
      for (const [position, topic] of named.entries()) {
        batch.topics.push({ content_type: type, content_id: id, topic_id: topic.id, position });
        const at = iso(atMs);
        if ((lastUsed.get(topic.id) ?? '') < at) lastUsed.set(topic.id, at);
      }
      likes = Math.floor(heat * 24 + rand() * 2);
      favorites = Math.floor(heat * 6 * rand());
      addReactions(batch, type, id, atMs, likes, favorites);
      comments = addComments(batch, type, id, atMs, Math.floor(heat * 10 * (0.5 + rand())));
    }
    return {
      member,
      row: {
        id,
        user_id: member.id,
        section_id: section?.id ?? null,
        status,
        title: status === 'draft' && rand() < 0.2 ? '' : title,
        topic_names: JSON.stringify(named.map((t) => t.name)),
        pinned: 0,
        featured: status === 'published' && rand() < (type === 'article' ? 0.04 : 0.003) ? 1 : 0,
        like_count: likes,
        comment_count: comments,
        favorite_count: favorites,
        view_count: published ? Math.floor(20 + heat * 3000 * (0.5 + rand()) + likes * 10) : 0,
        version: edited ? 2 : 1,
        published_at: published ? iso(atMs) : null,
        edited_at: edited,
        created_at: iso(atMs - rand() * DAY),
        updated_at: edited ?? iso(atMs),
      },
    };
  };

  /** Publishing times over two years, more of them lately (a growing community), oldest first. */
  const timeline = (count: number) =>
    Array.from({ length: count }, () => nowMs - rand() ** 1.6 * SPAN_MS).sort((a, b) => a - b);

  // Posts, and the big thread's id after them.
  const postCounts: ContentCounts = { published: 0, drafts: 0, deleted: 0 };
  const count = (counts: ContentCounts, status: ContentStatus) => {
    if (status === 'published') counts.published++;
    else if (status === 'draft') counts.drafts++;
    else counts.deleted++;
  };
  const firstPost = await reserveIds(db, 'post_id', postCount + 1);
  const postTimes = timeline(postCount);
  for (let start = 0; start < postCount; start += batchSize) {
    const batch = emptyBatch();
    for (let i = start; i < Math.min(postCount, start + batchSize); i++) {
      const id = firstPost + i;
      const atMs = postTimes[i] ?? nowMs;
      const { member, row } = contentRow(batch, 'post', id, atMs, POST_TITLES);
      const images =
        rand() < 0.25
          ? Array.from({ length: 1 + Math.floor(rand() ** 2 * 6) }, () =>
              options.imageUrl(`post/${member.userId}/${hex(2)}.webp`),
            )
          : [];
      const content = postText(member, rand() < 0.05);
      batch.posts.push({ ...row, content, excerpt: postExcerpt(content), images: JSON.stringify(images) });
      count(postCounts, row.status);
    }
    await write(batch);
    progress('posts', Math.min(postCount, start + batchSize), postCount);
  }

  // Articles.
  const articleCounts: ContentCounts = { published: 0, drafts: 0, deleted: 0 };
  const firstArticle = articleCount > 0 ? await reserveIds(db, 'article_id', articleCount) : 0;
  const articleTimes = timeline(articleCount);
  for (let start = 0; start < articleCount; start += batchSize) {
    const batch = emptyBatch();
    for (let i = start; i < Math.min(articleCount, start + batchSize); i++) {
      const id = firstArticle + i;
      const { member, row } = contentRow(batch, 'article', id, articleTimes[i] ?? nowMs, ARTICLE_TITLES);
      const template = pick(templates);
      batch.articles.push({
        ...row,
        excerpt: template.excerpt,
        // Deleted articles give their slug up, as deleteContent does.
        slug: row.status !== 'deleted' && rand() < 0.6 ? `gen-${id}-${hex(1)}` : null,
        cover: rand() < 0.5 ? options.imageUrl(`article/${member.userId}/${hex(2)}.webp`) : '',
        summary: template.summary,
        body: template.body,
        body_html: template.body_html,
        body_text: template.body_text,
        is_review: 0,
        review_work_type: null,
        review_work_id: null,
        rating_id: null,
      });
      count(articleCounts, row.status);
    }
    await write(batch);
    progress('articles', Math.min(articleCount, start + batchSize), articleCount);
  }

  // Pinned posts: one or two of the newest published posts of each section.
  for (const section of sections) {
    const newest = await db
      .selectFrom('post')
      .select('id')
      .where('section_id', '=', section.id)
      .where('status', '=', 'published')
      .where('id', '>=', firstPost)
      .orderBy('published_at', 'desc')
      .limit(1 + Math.floor(rand() * 2))
      .execute();
    if (newest.length > 0)
      await db
        .updateTable('post')
        .set({ pinned: 1 })
        .where(
          'id',
          'in',
          newest.map((row) => row.id),
        )
        .execute();
  }

  const bigThread = await writeBigThread();
  progress('big thread', 1, 1);

  // Counts that summarise rows, recounted from the rows (pre-existing ones included).
  await db.transaction().execute(async (trx) => {
    await sql`update section set
      post_count = (select count(*) from post where post.section_id = section.id and post.status = 'published'),
      article_count = (select count(*) from article where article.section_id = section.id and article.status = 'published'),
      follower_count = (select count(*) from community_follow f where f.target_type = 'section' and f.target_id = section.id)`.execute(
      trx,
    );
    await sql`update topic set
      use_count = (select count(*) from content_topic ct where ct.topic_id = topic.id),
      follower_count = (select count(*) from community_follow f where f.target_type = 'topic' and f.target_id = topic.id)`.execute(
      trx,
    );
    await sql`update users set
      post_count = (select count(*) from post where post.user_id = users.id and post.status = 'published'),
      article_count = (select count(*) from article where article.user_id = users.id and article.status = 'published')
      where users.email like ${`%@${GENERATED_EMAIL_DOMAIN}`}`.execute(trx);
    for (const [id, at] of [...lastUsed].sort((a, b) => a[0] - b[0]))
      await trx
        .updateTable('topic')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
  });
  await sql`analyze`.execute(db);

  return {
    users: {
      count: userCount,
      firstUserId,
      lastUserId: firstUserId + userCount - 1,
      sampleName: String(userRows[0]?.name ?? ''),
    },
    sections: { total: sections.length, created: sectionsCreated },
    topics: { total: topics.length, created: newTopics.length },
    follows: follows.length,
    posts: { ...postCounts, published: postCounts.published + 1 },
    articles: articleCounts,
    comments: totals.comments,
    likes: totals.likes,
    favorites: totals.favorites,
    bigThread,
  };

  /**
   * The big thread: a post in the busiest section two days ago with BIG_THREAD_ROOTS roots and
   * BIG_THREAD_REPLIES replies (a few roots draw most of them), emoji and images in some, likes on many,
   * one root pinned by the author.
   */
  async function writeBigThread(): Promise<CommunityGenerateResult['bigThread']> {
    const id = firstPost + postCount;
    const batch = emptyBatch();
    const atMs = nowMs - 50 * 60 * 60_000;
    const member = members[0] as Member;
    const works = games.length > 0 ? [...new Set([pick(games).id, pick(games).id])] : [];
    for (const [position, workId] of works.entries())
      batch.works.push({ content_type: 'post', content_id: id, work_type: 'galgame', work_id: workId, position });
    const named = ranked.slice(0, 3);
    for (const [position, topic] of named.entries()) {
      batch.topics.push({ content_type: 'post', content_id: id, topic_id: topic.id, position });
      const at = iso(atMs);
      if ((lastUsed.get(topic.id) ?? '') < at) lastUsed.set(topic.id, at);
    }
    const likes = Math.min(members.length, 320);
    const favorites = Math.min(members.length, 90);
    addReactions(batch, 'post', id, atMs, likes, favorites);

    // Comment times over the two days since, the roots first in number, replies among them.
    const total = BIG_THREAD_ROOTS + BIG_THREAD_REPLIES;
    const kinds = [...Array<boolean>(BIG_THREAD_ROOTS).fill(true), ...Array<boolean>(BIG_THREAD_REPLIES).fill(false)];
    // The first comment is a root; the rest are shuffled so replies follow the roots they answer.
    const order = [true, ...shuffled(kinds.slice(1), rand)];
    const times = Array.from({ length: total }, () => atMs + 60_000 + rand() ** 1.5 * (nowMs - atMs - 120_000)).sort(
      (a, b) => a - b,
    );
    const roots: { key: number; author: Member; replies: { key: number; author: Member }[] }[] = [];
    const discussed = weighted(
      Array.from({ length: 40 }, (_, i) => i),
      Array.from({ length: 40 }, (_, i) => 1 / (i + 1) ** 1.1),
      rand,
    );
    let commentLikes = 0;
    for (const [index, isRoot] of order.entries()) {
      const at = times[index] ?? nowMs;
      const writer = index === 0 ? member : author();
      const root = isRoot ? null : (roots[Math.min(roots.length - 1, discussed())] ?? null);
      const answered = root && root.replies.length > 0 && rand() < 0.45 ? pick(root.replies) : root;
      const key = batch.comments.length;
      let content = rand() < 0.5 ? `${pick(COMMENTS)}${sentences(1, 4)}` : pick(COMMENTS);
      if (index === 0)
        content = `楼主补充：整理一下楼里提到的攻略顺序和几个容易错过的细节，会持续更新。${sentences(2, 4)}`;
      if (rand() < 0.3) content += emoji();
      if (rand() < 0.1) content += `\n[img]${options.imageUrl(`comment/${writer.userId}/${hex(2)}.webp`)}[/img]`;
      batch.comments.push({
        key,
        rootKey: root?.key ?? null,
        parentKey: answered?.key ?? null,
        target_type: 'post',
        target_id: id,
        user_id: writer.id,
        reply_to_user_id: answered?.author.id ?? null,
        content,
        like_count: 0,
        reply_count: 0,
        status: 'visible',
        pinned: index === 0 ? 1 : 0,
        created_at: iso(at),
        deleted_at: null,
      });
      if (root) {
        const rootRow = batch.comments[root.key];
        if (rootRow) rootRow.reply_count = Number(rootRow.reply_count ?? 0) + 1;
        root.replies.push({ key, author: writer });
      } else {
        roots.push({ key, author: writer, replies: [] });
      }
      if (rand() < 0.45) {
        const likers = 1 + Math.floor(rand() ** 2 * (isRoot ? 60 : 15));
        for (const liker of distinctMembers(likers)) {
          batch.commentLikes.push({ commentKey: key, user_id: liker.id, created_at: iso(at + rand() * (nowMs - at)) });
          commentLikes++;
        }
      }
    }
    const content = postText(member, true);
    const images = Array.from({ length: 3 }, () => options.imageUrl(`post/${member.userId}/${hex(2)}.webp`));
    const name = games.length > 0 ? pick(games).title_zh || madeUpTitle() : madeUpTitle();
    batch.posts.push({
      id,
      user_id: member.id,
      section_id: busiest.id,
      status: 'published',
      title: `《${name}》全线通关后的总结与讨论（长帖，欢迎补充）`.slice(0, 100),
      excerpt: postExcerpt(content),
      topic_names: JSON.stringify(named.map((t) => t.name)),
      content,
      images: JSON.stringify(images),
      pinned: 0,
      featured: 1,
      like_count: likes,
      comment_count: total,
      favorite_count: favorites,
      view_count: 18_000 + Math.floor(rand() * 4000),
      version: 1,
      published_at: iso(atMs),
      edited_at: null,
      created_at: iso(atMs - 3600_000),
      updated_at: iso(atMs),
    });
    await write(batch);
    return {
      postId: id,
      comments: total,
      roots: BIG_THREAD_ROOTS,
      replies: BIG_THREAD_REPLIES,
      likes,
      commentLikes,
    };
  }
}

/**
 * Writes a batch's comments with ids reserved from the counter, in the order they were made (roots
 * before their replies), each root's reply count and each comment's like count matching its rows.
 */
async function writeComments(trx: Trx, batch: Batch): Promise<void> {
  if (batch.comments.length === 0) return;
  const first = await reserveIds(trx, 'comment_id', batch.comments.length);
  const idOf = (key: number | null) => (key === null ? null : first + key);
  const likeCounts = new Map<number, number>();
  for (const like of batch.commentLikes) likeCounts.set(like.commentKey, (likeCounts.get(like.commentKey) ?? 0) + 1);
  const rows: Insertable<CommentTable>[] = batch.comments.map(({ key, rootKey, parentKey, ...row }) => ({
    ...row,
    id: first + key,
    root_id: idOf(rootKey),
    parent_id: idOf(parentKey),
    like_count: likeCounts.get(key) ?? 0,
  }));
  // Roots first: a reply's root_id must point at a row already written.
  rows.sort((a, b) => Number(a.root_id !== null) - Number(b.root_id !== null) || a.id - b.id);
  await insertAll(rows, (chunk) => trx.insertInto('comment').values(chunk).execute());
  const likes = batch.commentLikes.map((like) => ({
    user_id: like.user_id,
    target_type: 'comment' as const,
    target_id: first + like.commentKey,
    created_at: like.created_at,
  }));
  await insertAll(likes, (chunk) => trx.insertInto('reaction_like').values(chunk).execute());
}

/** Two long articles (a long review and a guide), built from the sentence list; fixed per seed. */
function longTemplates(options: Pick<CommunityGenerateOptions, 'imageUrl'>): { body: JSONContent; summary: string }[] {
  const text = (value: string): JSONContent => ({ type: 'text', text: value });
  const paragraph = (offset: number, length: number): JSONContent => ({
    type: 'paragraph',
    content: [text(Array.from({ length }, (_, i) => SENTENCES[(offset + i * 7) % SENTENCES.length]).join(''))],
  });
  const heading = (value: string): JSONContent => ({ type: 'heading', attrs: { level: 2 }, content: [text(value)] });
  const build = (chapters: number, perChapter: number, image: string): JSONContent => {
    const content: JSONContent[] = [];
    for (let c = 0; c < chapters; c++) {
      content.push(heading(`第 ${c + 1} 部分`));
      for (let p = 0; p < perChapter; p++) content.push(paragraph(c * 13 + p * 5, 4 + ((c + p) % 4)));
      if (c % 3 === 1)
        content.push({
          type: 'bulletList',
          content: [0, 1, 2].map((i) => ({ type: 'listItem', content: [paragraph(c + i * 3, 1)] })),
        });
      if (c % 4 === 2) content.push({ type: 'blockquote', content: [paragraph(c * 2, 2)] });
      if (c % 5 === 3) content.push({ type: 'spoiler', content: [paragraph(c * 3, 2)] });
      if (c === 1) content.push({ type: 'image', attrs: { src: image, alt: '', title: null } });
    }
    return { type: 'doc', content };
  };
  return [
    {
      body: build(12, 4, options.imageUrl('article/1/long-review.webp')),
      summary: '一篇很长的全路线长评：剧情、角色、配乐与系统，逐章写下来。',
    },
    { body: build(6, 3, options.imageUrl('article/1/guide.webp')), summary: '' },
  ];
}
