import type { JSONContent } from '@tiptap/core';
import { topicKey } from '../../../shared/community/community.ts';
import { saveRating } from '../../modules/catalogue/ratings.service.ts';
import { renderArticleBody } from '../../modules/community/article-body.ts';
import { excerptOf, moveCounts } from '../../modules/community/content.service.ts';
import { postExcerpt } from '../../modules/community/posts.service.ts';
import { ensureTopics } from '../../modules/community/topics.service.ts';
import type { Db, Trx } from '../database.ts';
import { nextId } from '../ids.ts';

// Original demo community for local trials: six sections, a dozen topics, posts and articles by the demo
// accounts about the demo games, published over the days before the seed runs. Sections are matched by
// name and posts and articles by author and title, so running the seed again adds nothing twice. Items
// are written with the community's own count rules (moveCounts), so every count starts exact.

type Author = 'hikari_demo' | 'hikari_creator' | 'hikari_admin';

interface DemoSection {
  name: string;
  description: string;
  icon: string;
  color: string;
}

export const demoSections: DemoSection[] = [
  {
    name: '综合讨论',
    description: '什么都可以聊：新作情报、日常碎碎念、求推荐，找不到合适版块时就发这里。',
    icon: 'messages',
    color: '#39c5bb',
  },
  {
    name: 'Galgame 讨论',
    description: '剧情、角色、路线与通关感想。涉及关键剧情时请使用剧透标记。',
    icon: 'gamepad',
    color: '#ff6b81',
  },
  {
    name: '轻小说讨论',
    description: '追更进度、文库本与译本比较、作者与插画师的那些事。',
    icon: 'book-open',
    color: '#7c6cf2',
  },
  {
    name: '汉化与资源',
    description: '汉化进度、补丁发布与资源分享。请注明来源与汉化组，尊重每一份劳动。',
    icon: 'download',
    color: '#f5a524',
  },
  {
    name: '同人创作',
    description: '同人图、同人文、手书与手作，欢迎展示你的作品，也欢迎真诚的建议。',
    icon: 'pen',
    color: '#4caf50',
  },
  {
    name: '站务公告',
    description: '站点更新、规则说明与意见反馈。',
    icon: 'bell',
    color: '#5b8def',
  },
];

export const demoTopics: { name: string; description: string; color: string }[] = [
  { name: '新作情报', description: '新作发表、发售日与官方消息。', color: '#ff6b81' },
  { name: '通关感想', description: '刚刚打完？趁着余韵写下来。', color: '#39c5bb' },
  { name: '剧情讨论', description: '伏笔、设定与结局的深入讨论。', color: '#7c6cf2' },
  { name: '求推荐', description: '说说你的口味，让大家帮你挑。', color: '#f5a524' },
  { name: '汉化进度', description: '各汉化组的进度与补丁更新。', color: '#4caf50' },
  { name: '同人绘', description: '同人插画与绘画过程分享。', color: '#e91e63' },
  { name: '角色语录', description: '那些让人记住一整年的台词。', color: '#9c27b0' },
  { name: '夏日系', description: '蝉鸣、海风与夏日祭。', color: '#03a9f4' },
  { name: '推理', description: '本格、日常之谜与侦探角色。', color: '#607d8b' },
  { name: '治愈系', description: '适合睡前玩的温柔故事。', color: '#8bc34a' },
  { name: '萌新求助', description: '第一次接触 Galgame 或轻小说？在这里提问。', color: '#ff9800' },
  { name: '站务反馈', description: '对站点的建议与问题反馈。', color: '#5b8def' },
];

interface DemoItem {
  author: Author;
  section: string;
  title: string;
  topics: string[];
  /** Demo games by their Bangumi id (-1001…). */
  games?: number[];
  hoursAgo: number;
  views: number;
  pinned?: boolean;
  featured?: boolean;
}

interface DemoPost extends DemoItem {
  content: string;
}

export const demoPosts: DemoPost[] = [
  {
    author: 'hikari_admin',
    section: '站务公告',
    title: '社区版块说明与发帖须知',
    content:
      '欢迎来到 Hikari 社区！发帖前请花一分钟看看这几条约定：\n1. 按内容选择版块，找不到合适的就发在“综合讨论”。\n2. 涉及关键剧情时，请在标题注明【剧透】，正文里的关键内容用剧透标记包起来。\n3. 分享资源请注明来源与汉化组，不接受任何形式的倒卖。\n4. 对事不对人，友善讨论。\n有问题或建议，欢迎在本帖下留言，也可以带上 #站务反馈 话题发帖。',
    topics: ['站务反馈'],
    hoursAgo: 240,
    views: 1280,
    pinned: true,
  },
  {
    author: 'hikari_demo',
    section: 'Galgame 讨论',
    title: '《蝉雨回响》终于通关了，夏日祭那一晚真的绷不住',
    content:
      '花了两周，昨天凌晨终于打完了全部路线[emoji:hikari/cry]\n雫线的最后那段坡道，背景音乐一响起来眼泪就止不住。整体节奏前期有点慢，但坚持到第三次循环之后就完全停不下来了。\n已经通关的朋友，你们是按什么顺序攻略的？',
    topics: ['通关感想', '夏日系'],
    games: [-1001],
    hoursAgo: 5,
    views: 342,
  },
  {
    author: 'hikari_creator',
    section: '综合讨论',
    title: '求推荐：像《雨声侦探事务所》这样轻松又有推理的作品',
    content:
      '最近迷上了雨宫玲和久远透的斗嘴日常，案件不算烧脑，但每一章的反转都恰到好处。\n想找找类似的作品：推理成分不用太硬核，角色互动有趣就好，最好还有点温馨的日常线。先谢谢各位[emoji:hikari/smile]',
    topics: ['求推荐', '推理'],
    games: [-1003],
    hoursAgo: 20,
    views: 215,
  },
  {
    author: 'hikari_demo',
    section: '汉化与资源',
    title: '《终末天象仪》汉化进度到哪里了？',
    content:
      '去年看到有汉化组立项，之后就没再听到消息了。有没有了解情况的朋友说一下现在的进度？\n不催更，只是单纯很期待能看到星乃说中文[emoji:hikari/heart]',
    topics: ['汉化进度'],
    games: [-1004],
    hoursAgo: 30,
    views: 188,
  },
  {
    author: 'hikari_creator',
    section: '轻小说讨论',
    title: '最近在追的几部轻小说，聊聊各自的文风',
    content:
      '这个月同时在追三部：一部是节奏飞快的校园喜剧，一部是慢热的奇幻旅行记，还有一部是几乎没有对白的群像故事。\n越看越觉得文风和插画的搭配太重要了，同样的情节换一种写法，读起来完全是两种感觉。大家最近在追什么？',
    topics: ['求推荐'],
    hoursAgo: 45,
    views: 97,
  },
  {
    author: 'hikari_demo',
    section: '同人创作',
    title: '练习画星乃，想请大家提点构图上的建议',
    content:
      '想画一张星乃在天象仪穹顶下仰望星空的图，目前的思路是低机位仰拍，让穹顶的星图占满画面上半部分。\n但这样人物会显得很小，情绪不太好表达。画过类似构图的朋友有什么建议吗？',
    topics: ['同人绘'],
    games: [-1004],
    hoursAgo: 60,
    views: 76,
  },
  {
    author: 'hikari_admin',
    section: '站务公告',
    title: '深色模式上线，欢迎反馈显示问题',
    content:
      '页头右侧现在可以在“跟随系统、浅色、深色”之间切换配色了。\n如果你在深色模式下遇到文字看不清、图片边缘发白之类的问题，请回帖告诉我们页面地址和浏览器版本，我们会尽快修正。',
    topics: ['站务反馈'],
    hoursAgo: 80,
    views: 410,
  },
  {
    author: 'hikari_demo',
    section: '综合讨论',
    title: '《深夜面包房的小小谎言》的主题曲单曲循环了一整天',
    content:
      '睡不着的时候打开了这部，结果被主题曲治愈了。旋律很简单，但配上面包房暖黄色的灯光，真的有种被轻轻拍着后背的感觉。\n有没有同样适合深夜玩的温柔作品？',
    topics: ['治愈系'],
    games: [-1010],
    hoursAgo: 8,
    views: 133,
  },
  {
    author: 'hikari_creator',
    section: 'Galgame 讨论',
    title: '【剧透】《忘却都市阿卡迪亚》真结局的几个伏笔整理',
    content:
      '二周目才注意到，第一章里朔随手删掉的那份“异常报告”，编号和真结局里出现的那段记忆完全一致。\n另外，序章的城市广播其实每晚都在重复同一句话，只是中间换了一个词。整理了一下目前发现的伏笔，欢迎补充，没通关的朋友请谨慎往下看。',
    topics: ['剧情讨论'],
    games: [-1009],
    hoursAgo: 26,
    views: 264,
  },
  {
    author: 'hikari_demo',
    section: '综合讨论',
    title: '萌新求助：第一次玩 Galgame 应该从哪部开始？',
    content:
      '之前只看过改编动画，想正式入坑。比较喜欢日常和恋爱为主、不要太虐的故事，游玩时间希望在二三十个小时以内。\n各位前辈有什么推荐吗？[emoji:hikari/question]',
    topics: ['萌新求助', '求推荐'],
    hoursAgo: 3,
    views: 58,
  },
  {
    author: 'hikari_creator',
    section: 'Galgame 讨论',
    title: '《闪耀舞台☆齐声！》三位女主里你最推谁？',
    content:
      '嗓门比实力大的部长、只在舞台上开口的社恐天才、把偶像活动当成商业计划的大小姐——三个人的路线风格差别很大。\n我个人最推社恐天才，最后那场只有她一个人的路演实在太好哭了。你们呢？',
    topics: ['角色语录'],
    games: [-1005, -1011],
    hoursAgo: 14,
    views: 302,
  },
  {
    author: 'hikari_demo',
    section: '轻小说讨论',
    title: '文库本和电子版的插图差别有点大',
    content:
      '买了同一卷的文库本和电子版，发现电子版少了两张彩页，黑白插图的网点也糊了不少。\n以后还是优先买实体书了，不知道大家有没有遇到过类似的情况。',
    topics: ['新作情报'],
    hoursAgo: 50,
    views: 69,
  },
  {
    author: 'hikari_creator',
    section: '汉化与资源',
    title: '《魔女与七口钟》民间汉化补丁 v1.2 更新说明',
    content:
      '本次更新修正了第四章之后的三十余处错译，统一了七座钟楼的译名，并修复了部分环境下字体显示不全的问题。\n补丁仅供已购买正版的玩家使用，请勿转载到其他平台。发现错误欢迎在帖子里反馈，附上截图和章节位置会更方便我们定位。',
    topics: ['汉化进度'],
    games: [-1014],
    hoursAgo: 100,
    views: 520,
  },
  {
    author: 'hikari_demo',
    section: 'Galgame 讨论',
    title: '《雪融前奏曲》和《白银舞星》的世界观联系',
    content:
      '两部都发生在北国小城雪见泽，调律工坊的老师傅在《白银舞星》里其实出现过一次，就在旧礼堂那一幕的背景对话里。\n还有哪些彩蛋是我没注意到的？',
    topics: ['剧情讨论'],
    games: [-1012, -1007],
    hoursAgo: 120,
    views: 145,
  },
];

interface DemoArticle extends DemoItem {
  slug: string | null;
  summary: string;
  body: JSONContent;
  /** A review of the first game, with the author's rating of it (made when missing). */
  review?: { score: number; text: string };
}

const text = (value: string, bold = false): JSONContent =>
  bold ? { type: 'text', text: value, marks: [{ type: 'bold' }] } : { type: 'text', text: value };
const p = (...parts: (string | JSONContent)[]): JSONContent => ({
  type: 'paragraph',
  content: parts.map((part) => (typeof part === 'string' ? text(part) : part)),
});
const h = (level: 2 | 3, value: string): JSONContent => ({ type: 'heading', attrs: { level }, content: [text(value)] });
const list = (ordered: boolean, ...items: string[]): JSONContent => ({
  type: ordered ? 'orderedList' : 'bulletList',
  content: items.map((item) => ({ type: 'listItem', content: [p(item)] })),
});
const quote = (...lines: string[]): JSONContent => ({ type: 'blockquote', content: lines.map((line) => p(line)) });
const spoiler = (...lines: string[]): JSONContent => ({ type: 'spoiler', content: lines.map((line) => p(line)) });
const doc = (...content: JSONContent[]): JSONContent => ({ type: 'doc', content });

export const demoArticles: DemoArticle[] = [
  {
    author: 'hikari_demo',
    section: 'Galgame 讨论',
    title: '《蝉雨回响》长评：一个关于“明天”的故事',
    slug: 'semi-ame-echo-review',
    summary: '循环题材最难的不是设计谜题，而是让人相信“明天”值得到来。《蝉雨回响》做到了。',
    topics: ['通关感想', '夏日系'],
    games: [-1001],
    hoursAgo: 10,
    views: 860,
    featured: true,
    review: { score: 9, text: '夏天、循环与告别，节奏慢热但后劲极大。' },
    body: doc(
      h(2, '写在前面'),
      p(
        '这篇长评尽量不涉及关键剧情，涉及的部分都放进了剧透块里。如果你还没玩，只看',
        text('第一节和最后一节', true),
        '就好。',
      ),
      h(2, '慢热，但每一步都算数'),
      p(
        '前两次循环几乎只是在日向野小镇里闲逛：神社、坡道、祖母家的檐廊。很多人会在这里放弃，但这些看似无关的日常，正是后半段所有情绪的地基。',
      ),
      list(
        false,
        '场景美术：夏日午后的光线处理得非常细腻，蝉鸣与风铃的音效层次分明。',
        '配乐：主旋律在不同路线里换了三种编曲，最后一次出现时的钢琴独奏是全作的高光。',
        '文本：对白克制，很少直接说出情绪，留白给了玩家。',
      ),
      h(2, '关于循环'),
      quote('“如果明天永远不会来，那今天说的话还算数吗？”', '——雫'),
      p('这句台词几乎是整部作品的题眼。循环在这里不是谜题，而是一种逃避；打破它，需要的是主角自己愿意承担“明天”。'),
      spoiler(
        '真结局里，凑选择把祖母留下的怀表交给雫，而不是自己带走。',
        '这个动作意味着他终于接受了夏天会结束——也正因为如此，八月三十二日才终于没有到来。',
      ),
      h(2, '推荐给谁'),
      list(
        true,
        '喜欢夏日题材、愿意慢慢品味日常的玩家。',
        '对循环题材感兴趣，但更看重情感而不是解谜的玩家。',
        '想找一部能在通关后余韵很久的作品的人。',
      ),
      p('总评 9 分。扣掉的一分给前期稍显冗长的节奏，剩下的九分全部给那个终于到来的“明天”。'),
    ),
  },
  {
    author: 'hikari_creator',
    section: 'Galgame 讨论',
    title: '雨声侦探事务所系列入坑指南',
    slug: 'rain-detective-guide',
    summary: '两部正篇怎么玩、先玩哪部、哪些支线不能错过，一篇讲清楚。',
    topics: ['推理', '求推荐'],
    games: [-1003, -1006],
    hoursAgo: 40,
    views: 530,
    featured: true,
    body: doc(
      h(2, '先玩哪一部？'),
      p(
        '按发售顺序来：先玩《雨声侦探事务所》，再玩《第二幕 ～雾笛之夜～》。第二幕的很多笑点和感动都建立在第一部的人物关系上。',
      ),
      h(2, '不能错过的支线'),
      list(
        false,
        '第一部第三章“消失的雨伞”：看似日常委托，其实埋下了整个系列的伏笔。',
        '第二部的灯塔夜谈：玲难得认真说起自己为什么只在雨天营业。',
        '两部通关后解锁的事务所日志，补全了很多角色背景。',
      ),
      h(2, '推理难度怎么样？'),
      p('整体偏轻松，线索给得很公平，适合推理新手。真正的看点是角色之间的互动，而不是诡计本身。'),
      quote('“名侦探的第一条守则：下雨天一定要带伞——给委托人带。”'),
      spoiler('第二部的真凶其实在第一部结尾的报纸角落里出现过名字。'),
      p('准备好一杯热茶，挑一个下雨的晚上开始吧。'),
    ),
  },
  {
    author: 'hikari_admin',
    section: '站务公告',
    title: '社区写作指南：如何写一篇好读的长评',
    slug: 'writing-guide',
    summary: '结构、剧透标记、配图与标题：写长评时值得注意的几件事。',
    topics: ['站务反馈'],
    hoursAgo: 150,
    views: 720,
    body: doc(
      h(2, '先想清楚写给谁看'),
      p('写给还没玩过的人，和写给已经通关的人，是两种完全不同的文章。开头说明这一点，读者会更安心。'),
      h(2, '结构建议'),
      list(
        true,
        '一句话总结你的感受。',
        '分几个方面展开：剧情、角色、美术、音乐、系统。',
        '给出推荐人群和不推荐的理由。',
      ),
      h(2, '剧透要包起来'),
      p('编辑器工具栏里有“剧透”块，关键剧情请放进去。读者点开之前，它会一直保持折叠。'),
      spoiler('就像这样：这里的内容默认是折叠的。'),
      h(2, '标题与摘要'),
      p('标题写清楚作品名和文章类型（长评、攻略、杂谈），摘要用一两句话说出核心观点。列表页会优先显示你写的摘要。'),
      quote('好读的长评，不在于写得多，而在于读者读完知道自己要不要去玩。'),
    ),
  },
  {
    author: 'hikari_creator',
    section: '轻小说讨论',
    title: '从文库本到网络连载：这些年轻小说的变化',
    slug: null,
    summary: '',
    topics: ['新作情报'],
    hoursAgo: 70,
    views: 310,
    body: doc(
      h(2, '书名越来越长'),
      p('十年前，一个简短的书名配上醒目的封面就足够吸引人；如今，书名本身就要承担起“简介”的功能。'),
      h(2, '连载节奏的变化'),
      p(
        '网络连载让读者可以每天追更，作者也能根据反馈调整走向。代价是，部分作品在成书时需要大幅修改，才能适应文库本的节奏。',
      ),
      list(false, '更短的章节', '更频繁的小高潮', '更早揭示核心设定'),
      h(2, '不变的东西'),
      p('无论形式怎么变，读者想要的始终是一个值得追下去的故事，以及让人记住的角色。'),
    ),
  },
  {
    author: 'hikari_demo',
    section: '同人创作',
    title: '同人创作新手的第一年：我学到的五件事',
    slug: 'first-year-of-fan-art',
    summary: '从不敢发图到每月完成一张作品，写给同样刚起步的你。',
    topics: ['同人绘'],
    hoursAgo: 90,
    views: 205,
    body: doc(
      p('一年前我第一次在社区发图，紧张到发完就关掉了网页。现在回头看，这一年学到的东西比想象中多。'),
      list(
        true,
        '先完成，再完美。画完的草稿比没画完的精稿更有价值。',
        '多看原作设定集，角色的小习惯往往比服装细节更能传达神韵。',
        '记录过程，回头看时能清楚地看到自己的进步。',
        '真诚地请求建议，也真诚地感谢提建议的人。',
        '保持节奏，哪怕一个月只完成一张。',
      ),
      quote('“画你喜欢的角色，本身就是一种表达喜欢的方式。”'),
      p('如果你也刚刚开始，欢迎在同人创作版块发出你的第一张图。'),
    ),
  },
  {
    author: 'hikari_creator',
    section: '汉化与资源',
    title: '汉化组是怎样工作的：从提取文本到封包',
    slug: 'how-fan-translation-works',
    summary: '一部 Galgame 的民间汉化，大致要经过哪些步骤、需要哪些人。',
    topics: ['汉化进度'],
    games: [-1014],
    hoursAgo: 110,
    views: 640,
    body: doc(
      h(2, '一个汉化组里有谁'),
      list(
        false,
        '程序：解包、提取文本、处理字体与封包。',
        '翻译：把日文剧本译成中文。',
        '校对与润色：统一译名，调整语气。',
        '美工：修改图片中的文字。',
        '测试：从头到尾玩一遍，找出漏译和显示问题。',
      ),
      h(2, '最耗时的环节'),
      p('通常不是翻译，而是校对和测试。一个译名的修改，可能要在几万行文本里逐一核对。'),
      h(3, '关于进度'),
      p('进度公告里的百分比往往只统计翻译，校对和测试还需要相当长的时间，所以请大家耐心一些。'),
      quote('汉化是一件“用爱发电”的事，最好的支持是购买正版，以及在发现错误时认真反馈。'),
    ),
  },
];

/** The columns posts and articles share, as the seed writes them. */
interface DemoRow {
  id: number;
  user_id: string;
  section_id: number;
  status: 'published';
  title: string;
  excerpt: string;
  topic_names: string;
  version: number;
  published_at: string;
  edited_at: null;
  created_at: string;
  updated_at: string;
}

const hoursBefore = (now: Date, hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString();

/** Writes the demo community; items whose author is missing are left out. Safe to run again. */
export async function seedDemoCommunity(
  db: Db,
  now: Date,
): Promise<{ sections: number; topics: number; posts: number; articles: number }> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('name', 'in', ['hikari_demo', 'hikari_creator', 'hikari_admin'])
    .execute();
  const userIds = new Map(users.map((u) => [u.name, u.id]));
  const at = now.toISOString();

  const sectionIds = new Map<string, number>();
  for (const [order, section] of demoSections.entries()) {
    const existing = await db.selectFrom('section').select('id').where('name', '=', section.name).executeTakeFirst();
    if (existing) {
      sectionIds.set(section.name, existing.id);
      continue;
    }
    const id = await nextId(db, 'section_id');
    await db
      .insertInto('section')
      .values({ id, ...section, sort_order: order, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    sectionIds.set(section.name, id);
  }

  const topicIds = await ensureTopics(
    db,
    demoTopics.map((t) => t.name),
    now,
  );
  for (const [index, topic] of demoTopics.entries()) {
    await db
      .updateTable('topic')
      .set({ description: topic.description, color: topic.color })
      .where('id', '=', topicIds[index] ?? 0)
      .where('description', '=', '')
      .execute();
  }
  const topicId = new Map(demoTopics.map((t, i) => [topicKey(t.name), topicIds[i] ?? 0]));

  const bangumi = [...new Set([...demoPosts, ...demoArticles].flatMap((item) => item.games ?? []))];
  const games = await db
    .selectFrom('galgame')
    .select(['id', 'bangumi_id'])
    .where('bangumi_id', 'in', bangumi)
    .execute();
  const gameIds = new Map(games.map((g) => [g.bangumi_id, g.id]));

  /** Writes one published item with its works and counts, unless its author already has one of that title. */
  async function write(
    type: 'post' | 'article',
    item: DemoItem,
    insert: (trx: Trx, row: DemoRow) => Promise<void>,
    excerpt: string,
  ): Promise<boolean> {
    const authorId = userIds.get(item.author);
    const sectionId = sectionIds.get(item.section);
    if (!authorId || sectionId === undefined) return false;
    const table = type as 'post';
    const exists = await db
      .selectFrom(table)
      .select('id')
      .where('user_id', '=', authorId)
      .where('title', '=', item.title)
      .executeTakeFirst();
    if (exists) return false;
    const works = (item.games ?? []).flatMap((b) => {
      const id = gameIds.get(b);
      return id === undefined ? [] : [{ type: 'galgame' as const, id }];
    });
    const topics = item.topics.flatMap((name) => topicId.get(topicKey(name)) ?? []);
    const when = hoursBefore(now, item.hoursAgo);
    await db.transaction().execute(async (trx) => {
      const id = await nextId(trx, `${type}_id`);
      const row = {
        id,
        user_id: authorId,
        section_id: sectionId,
        status: 'published' as const,
        title: item.title,
        excerpt,
        topic_names: JSON.stringify(item.topics),
        version: 1,
        published_at: when,
        edited_at: null,
        created_at: when,
        updated_at: when,
      };
      await insert(trx, row);
      await trx
        .updateTable(table)
        .set({ view_count: item.views, pinned: item.pinned ? 1 : 0, featured: item.featured ? 1 : 0 })
        .where('id', '=', id)
        .execute();
      if (works.length > 0)
        await trx
          .insertInto('content_work')
          .values(
            works.map((w, position) => ({
              content_type: type,
              content_id: id,
              work_type: w.type,
              work_id: w.id,
              position,
            })),
          )
          .execute();
      await moveCounts(
        trx,
        { type, id, authorId },
        { published: false, sectionId: null, topicIds: [] },
        { published: true, sectionId, topicIds: topics },
        new Date(when),
      );
    });
    return true;
  }

  let posts = 0;
  for (const post of demoPosts) {
    const written = await write(
      'post',
      post,
      async (trx, row) => {
        await trx
          .insertInto('post')
          .values({ ...row, content: post.content, images: '[]' })
          .execute();
      },
      postExcerpt(post.content),
    );
    if (written) posts++;
  }

  let articles = 0;
  for (const article of demoArticles) {
    const rendered = renderArticleBody(article.body);
    let review: {
      is_review: number;
      review_work_type: 'galgame' | null;
      review_work_id: number | null;
      rating_id: number | null;
    } = { is_review: 0, review_work_type: null, review_work_id: null, rating_id: null };
    const authorId = userIds.get(article.author);
    const reviewed = article.review && article.games?.[0] !== undefined ? gameIds.get(article.games[0]) : undefined;
    if (article.review && reviewed !== undefined && authorId) {
      let rating = await db
        .selectFrom('rating')
        .select('id')
        .where('user_id', '=', authorId)
        .where('galgame_id', '=', reviewed)
        .executeTakeFirst();
      if (!rating) {
        await saveRating(
          db,
          authorId,
          reviewed,
          { score: article.review.score, status: 'completed', text: article.review.text, spoiler: false },
          now,
        );
        rating = await db
          .selectFrom('rating')
          .select('id')
          .where('user_id', '=', authorId)
          .where('galgame_id', '=', reviewed)
          .executeTakeFirst();
      }
      review = { is_review: 1, review_work_type: 'galgame', review_work_id: reviewed, rating_id: rating?.id ?? null };
    }
    const written = await write(
      'article',
      article,
      async (trx, row) => {
        await trx
          .insertInto('article')
          .values({
            ...row,
            slug: article.slug,
            cover: '',
            summary: article.summary,
            body: JSON.stringify(rendered.doc),
            body_html: rendered.html,
            body_text: rendered.text,
            ...review,
          })
          .execute();
      },
      excerptOf(article.summary || rendered.text),
    );
    if (written) articles++;
  }

  return { sections: demoSections.length, topics: demoTopics.length, posts, articles };
}
