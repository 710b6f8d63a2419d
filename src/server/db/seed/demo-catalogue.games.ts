import type { DownloadLanguage, GalgamePrice, Platform, TranslationType } from '../../../shared/catalogue.ts';
import type {
  CharacterKey,
  CharacterRole,
  PersonKey,
  ProducerKey,
  ProducerRole,
  Relation,
  StaffRole,
  TagKey,
} from './demo-catalogue.entities.ts';

// Data only: the demo catalogue's games and how they relate, referring to the producers, people,
// tags and characters of demo-catalogue.entities.ts by key. demo-catalogue.ts writes them.

export interface DemoDownload {
  language: DownloadLanguage;
  platform: Platform;
  translationType: TranslationType;
  translationGroup?: string;
  sizeBytes: number;
  note: string;
  links: { label: string; url: string; password?: string }[];
}

export interface DemoGame {
  bangumiId: number;
  title: string;
  titleZh: string;
  aliases: string[];
  intro: string;
  releaseDate: string | null;
  platforms: Platform[];
  prices: GalgamePrice[];
  nsfw?: boolean;
  producers: { key: ProducerKey; role: ProducerRole; note?: string }[];
  /** Voice actors are added from `characters`; list everyone else here. */
  staff: { key: PersonKey; role: Exclude<StaffRole, 'voice'>; note?: string }[];
  characters: { key: CharacterKey; role: CharacterRole; voice?: PersonKey }[];
  tags: { key: TagKey; votes: number; spoiler?: 0 | 1 | 2 }[];
  downloads?: DemoDownload[];
}

export const jpy = (edition: string, amount: number): GalgamePrice => ({ edition, currency: 'JPY', amount });

export const games = {
  semishigure: {
    bangumiId: -1001,
    title: '蝉時雨のリフレイン',
    titleZh: '蝉雨回响',
    aliases: ['Semishigure Refrain', 'せみりふ', '蝉雨'],
    intro:
      '高二的夏天，早濑凑为了逃离令人窒息的城市生活，独自回到祖母居住的山间小镇“日向野”。蝉鸣不止的坡道、年久失修的神社，还有记忆里那个总是赤脚奔跑的青梅竹马——一切似乎都没有改变。然而就在夏日祭结束的那个夜晚，凑一觉醒来，却发现日历又回到了八月二十四日。同样的蝉鸣，同样的对话，同样的告别。为了找出让时间停滞的原因，凑开始在反复的七天里重新认识小镇上的每一个人。这个夏天究竟藏着谁的愿望？他又该如何走向“明天”？',
    releaseDate: '2019-08-23',
    platforms: ['windows', 'switch'],
    prices: [jpy('通常版', 8800), jpy('限定版', 12800)],
    producers: [
      { key: 'tsukishiro', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher', note: 'Nintendo Switch 版' },
    ],
    staff: [
      { key: 'himuro', role: 'scenario' },
      { key: 'yuzuki', role: 'art' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'hiyori', role: 'main', voice: 'shirase' },
      { key: 'shizuku', role: 'main', voice: 'yukishiro' },
      { key: 'miu', role: 'supporting', voice: 'serizawa' },
      { key: 'chiyo', role: 'appears' },
    ],
    tags: [
      { key: 'summer', votes: 118 },
      { key: 'countryside', votes: 96 },
      { key: 'time-loop', votes: 88 },
      { key: 'pure-love', votes: 72 },
      { key: 'true-ending', votes: 54 },
      { key: 'twist-ending', votes: 41, spoiler: 2 },
      { key: 'multiple-endings', votes: 30 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'fan',
        translationGroup: '萤火汉化组',
        sizeBytes: 4_218_734_592,
        note: '简体中文汉化整合版，已内置 1.02 官方修正补丁。',
        links: [
          { label: '网盘 A', url: 'https://example.com/hikari-demo/semishigure/zh-hans', password: 'hk2026' },
          { label: '网盘 B', url: 'https://example.net/mirror/semishigure/zh-hans', password: 'hk2026' },
        ],
      },
      {
        language: 'zh-Hant',
        platform: 'windows',
        translationType: 'fan',
        translationGroup: '拾光汉化社',
        sizeBytes: 4_221_003_776,
        note: '繁体中文版，在简体汉化基础上重新校对润色。',
        links: [{ label: '网盘 A', url: 'https://example.org/shiguang/semishigure/zh-hant' }],
      },
      {
        language: 'ja',
        platform: 'windows',
        translationType: 'none',
        sizeBytes: 4_096_532_480,
        note: '日文原版，附初回特典壁纸。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/semishigure/ja', password: 'hk2026' }],
      },
    ],
  },
  semishigureAfter: {
    bangumiId: -1002,
    title: '蝉時雨のリフレイン -after days-',
    titleZh: '蝉雨回响 -after days-',
    aliases: ['Semishigure Refrain after days', 'せみりふAD'],
    intro:
      '那个漫长的夏天，终于迎来了“明天”。《蝉雨回响》的官方 Fan Disc，收录了本篇之后日和、雫、美羽三位女主角各自的恋人后日谈，以及秋日祭、初雪、跨年参拜等季节限定短篇。此外还有以小镇居民为主角的群像喜剧《日向野町内会议事录》，全新绘制的 CG 与追加曲目也一并收录。在经历过那么多个重复的七天之后，这一次，他们终于可以慢慢地、好好地谈一场恋爱了。',
    releaseDate: '2020-12-18',
    platforms: ['windows'],
    prices: [jpy('通常版', 4800)],
    nsfw: true,
    producers: [{ key: 'tsukishiro', role: 'developer' }],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'himuro', role: 'other', note: '剧本监修' },
      { key: 'yuzuki', role: 'art' },
    ],
    characters: [
      { key: 'hiyori', role: 'main', voice: 'shirase' },
      { key: 'shizuku', role: 'main', voice: 'yukishiro' },
      { key: 'miu', role: 'main', voice: 'serizawa' },
      { key: 'chiyo', role: 'appears' },
    ],
    tags: [
      { key: 'pure-love', votes: 46 },
      { key: 'slice-of-life', votes: 38 },
      { key: 'comedy', votes: 25 },
      { key: 'summer', votes: 19 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'fan',
        translationGroup: '萤火汉化组',
        sizeBytes: 2_147_221_504,
        note: 'FD 完整汉化，包含全部后日谈与季节短篇。需要先安装本篇。',
        links: [
          { label: '网盘 A', url: 'https://example.com/hikari-demo/semishigure-after/zh-hans' },
          { label: '网盘 B', url: 'https://example.org/mirror/semishigure-after/zh-hans', password: 'hk2026' },
        ],
      },
    ],
  },
  amaoto: {
    bangumiId: -1003,
    title: '雨音探偵事務所',
    titleZh: '雨声侦探事务所',
    aliases: ['Amaoto Detective Agency', '雨音探偵'],
    intro:
      '一年中有两百多天都在下雨的港湾都市“雾浦”。因为一场误会丢掉了打工的大学生久远透，在旧街区的雨棚下捡到了一张奇怪的招聘启事——“诚征助手，仅限雨天上班”。推开那扇吱呀作响的门，迎接他的是自称“名侦探”的少女雨宫玲，以及堆满未结案卷宗的小小事务所。走失的猫、被调包的遗书、在雨夜里反复响起的钢琴声……看似毫无关联的委托背后，一条细细的线正悄悄把整座城市串联起来。收集线索、拼凑证词，在每一场雨停之前，找到属于你的答案。',
    releaseDate: '2021-06-11',
    platforms: ['windows', 'switch'],
    prices: [jpy('通常版', 7800), jpy('Switch 版', 6980)],
    producers: [
      { key: 'aoakari', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher' },
    ],
    staff: [
      { key: 'asagiri', role: 'scenario' },
      { key: 'takano', role: 'art' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'rei', role: 'main', voice: 'yukishiro' },
      { key: 'toru', role: 'main', voice: 'masago' },
      { key: 'madoka', role: 'supporting', voice: 'serizawa' },
      { key: 'koga', role: 'appears' },
    ],
    tags: [
      { key: 'detective', votes: 102 },
      { key: 'mystery', votes: 95 },
      { key: 'twist-ending', votes: 48, spoiler: 1 },
      { key: 'comedy', votes: 15 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'official',
        sizeBytes: 3_456_789_012,
        note: '官方简体中文版，由缀星娱乐发行，含全部追加委托。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/amaoto/zh-hans' }],
      },
      {
        language: 'ja',
        platform: 'windows',
        translationType: 'none',
        sizeBytes: 3_401_229_824,
        note: '日文原版 1.01。',
        links: [
          { label: '网盘 A', url: 'https://example.net/amaoto/ja', password: 'hk2026' },
          { label: '网盘 B', url: 'https://example.org/mirror/amaoto/ja', password: 'hk2026' },
        ],
      },
    ],
  },
  planetarium: {
    bangumiId: -1004,
    title: '終末のプラネタリウム',
    titleZh: '终末天象仪',
    aliases: ['Planetarium at the End', 'しゅうプラ'],
    intro:
      '文明在一场被称为“静默”的灾变中悄然落幕，城市被藤蔓与沙尘慢慢吞没。少年修理工索拉独自在废墟之间穿行，收集还能运转的零件，只为修好小镇边缘那座早已停转的天象仪。某天，他在天象仪的控制室里唤醒了一台沉睡的少女型解说机器人“星乃”。她记得每一颗星星的名字，却想不起自己为什么会在这里。一人一机就此开始了修复天象仪的漫长工作——在最后一场星空投影开幕之前，他们还有许多话想要告诉彼此。',
    releaseDate: '2022-02-25',
    platforms: ['windows', 'android', 'ios'],
    prices: [jpy('通常版', 2980), { edition: '数字版', currency: 'CNY', amount: 58 }],
    producers: [{ key: 'touro', role: 'developer' }],
    staff: [
      { key: 'shimotsuki', role: 'character_design' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'sora', role: 'main', voice: 'masago' },
      { key: 'hoshino', role: 'main', voice: 'shirase' },
      { key: 'riko', role: 'supporting', voice: 'serizawa' },
    ],
    tags: [
      { key: 'post-apocalypse', votes: 110 },
      { key: 'sci-fi', votes: 84 },
      { key: 'tragedy', votes: 67, spoiler: 1 },
      { key: 'heartwarming', votes: 40 },
      { key: 'amnesia', votes: 33 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'fan',
        translationGroup: '灯塔汉化组',
        sizeBytes: 1_288_490_188,
        note: '汉化已整合进游戏本体，附作者授权说明。',
        links: [{ label: '网盘 A', url: 'https://example.org/dengta/planetarium/windows', password: 'hk2026' }],
      },
      {
        language: 'zh-Hans',
        platform: 'android',
        translationType: 'fan',
        translationGroup: '灯塔汉化组',
        sizeBytes: 986_513_408,
        note: '安卓版汉化安装包，建议在 6GB 以上内存的设备上游玩。',
        links: [{ label: '网盘 A', url: 'https://example.org/dengta/planetarium/android' }],
      },
    ],
  },
  unison: {
    bangumiId: -1005,
    title: 'きらめきステージ☆ユニゾン!',
    titleZh: '闪耀舞台☆齐声！',
    aliases: ['Kirameki Stage Unison!', 'きらユニ'],
    intro:
      '私立星见丘学园的偶像部只剩下三名成员，活动室下个月就要被收回。被班主任半强迫地塞进偶像部担任“经纪人”的你，面对的是一群个性过于鲜明的少女：嗓门比实力更大的部长、只在舞台上才肯开口的社恐天才，以及把偶像活动当作“商业计划”的大小姐。从街头发传单到商店街庆典，从翻车的首场 Live 到意外爆红的直播事故——目标是在秋季的“全国学园偶像祭”上站到最后！笑声与汗水交织的青春偶像喜剧，收录原创演唱曲十二首。',
    releaseDate: '2022-11-25',
    platforms: ['windows', 'android', 'ios'],
    prices: [jpy('通常版', 7800), jpy('限定版', 11800)],
    producers: [{ key: 'itoguruma', role: 'developer' }],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'yuzuki', role: 'character_design' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'iroha', role: 'main', voice: 'shirase' },
      { key: 'nene', role: 'main', voice: 'serizawa' },
      { key: 'ririka', role: 'main', voice: 'yukishiro' },
      { key: 'kurokawa', role: 'appears' },
    ],
    tags: [
      { key: 'idol', votes: 99 },
      { key: 'music', votes: 91 },
      { key: 'comedy', votes: 77 },
      { key: 'school', votes: 60 },
      { key: 'coming-of-age', votes: 28 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'machine',
        sizeBytes: 5_368_709_120,
        note: '机器翻译版本，部分歌词与双关语未翻译，仅供尝鲜。',
        links: [{ label: '网盘 A', url: 'https://example.net/kirayuni/zh-hans-mt' }],
      },
      {
        language: 'ja',
        platform: 'windows',
        translationType: 'none',
        sizeBytes: 5_301_600_256,
        note: '日文原版，含全部演唱曲的高音质版本。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/kirayuni/ja', password: 'hk2026' }],
      },
    ],
  },
  amaotoKiteki: {
    bangumiId: -1006,
    title: '雨音探偵事務所 第二幕 ～霧笛の夜～',
    titleZh: '雨声侦探事务所 第二幕 ～雾笛之夜～',
    aliases: ['Amaoto Detective Agency Act 2', '雨音探偵2'],
    intro:
      '上一起大案落幕半年之后，雾浦迎来了罕见的干旱季节——对只在雨天营业的雨宫侦探事务所来说，这无疑是个坏消息。就在事务所濒临倒闭之际，一封盖着旧式火漆印的委托信被塞进了门缝：港口尽头的废弃灯塔里，每到深夜都会响起早已停用的雾笛。与此同时，市内接连发生了以雾笛为信号的连环盗窃案。玲与透再次出发，而这一次，一位自称“雾浦真正的名侦探”的少年也加入了这场较量……系列第二作，新增多视角推理系统与全新的证词对决玩法。',
    releaseDate: '2023-10-27',
    platforms: ['windows', 'switch', 'ps5'],
    prices: [jpy('通常版', 8800), jpy('限定版', 13800)],
    producers: [
      { key: 'aoakari', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher' },
    ],
    staff: [
      { key: 'asagiri', role: 'scenario' },
      { key: 'takano', role: 'art' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'rei', role: 'main', voice: 'yukishiro' },
      { key: 'toru', role: 'main', voice: 'masago' },
      { key: 'kaito', role: 'supporting', voice: 'serizawa' },
      { key: 'madoka', role: 'supporting', voice: 'serizawa' },
      { key: 'koga', role: 'appears' },
    ],
    tags: [
      { key: 'detective', votes: 64 },
      { key: 'mystery', votes: 58 },
      { key: 'twist-ending', votes: 31, spoiler: 2 },
      { key: 'multiple-endings', votes: 17 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'official',
        sizeBytes: 6_012_954_214,
        note: '官方简体中文版，与日文版同步发售。',
        links: [
          { label: '网盘 A', url: 'https://example.com/hikari-demo/amaoto2/zh-hans' },
          { label: '网盘 B', url: 'https://example.net/mirror/amaoto2/zh-hans' },
        ],
      },
      {
        language: 'zh-Hant',
        platform: 'windows',
        translationType: 'official',
        sizeBytes: 6_013_372_416,
        note: '官方繁体中文版。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/amaoto2/zh-hant' }],
      },
    ],
  },
  etoile: {
    bangumiId: -1007,
    title: '白銀のエトワール',
    titleZh: '白银舞星',
    aliases: ['Hakugin no Etoile', '銀エト'],
    intro:
      '北国小城“雪见泽”，一年中有五个月被白雪覆盖。因伤告别了田径赛场的主人公，在转学后的第一个冬天，于废弃的旧礼堂里遇见了一位独自练习芭蕾的少女。她叫白石雪音，曾是被誉为“天才”的芭蕾舞者，却在一次公演后销声匿迹。没有观众，没有音乐，只有冻得发红的指尖和一遍又一遍的旋转。“下一场公演，我想站在最中央。”为了让小城那座即将拆除的剧场迎来最后一次谢幕，两个失去了舞台的人，开始了一段在雪中交织的冬日恋曲。',
    releaseDate: '2024-01-26',
    platforms: ['windows'],
    prices: [jpy('通常版', 9800), jpy('限定版', 14800)],
    nsfw: true,
    producers: [{ key: 'tsukishiro', role: 'developer' }],
    staff: [
      { key: 'himuro', role: 'scenario' },
      { key: 'shimotsuki', role: 'character_design' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'yukine', role: 'main', voice: 'yukishiro' },
      { key: 'yui', role: 'main', voice: 'shirase' },
      { key: 'konoha', role: 'supporting', voice: 'serizawa' },
      { key: 'soichiro', role: 'appears' },
    ],
    tags: [
      { key: 'winter', votes: 73 },
      { key: 'pure-love', votes: 69 },
      { key: 'music', votes: 35 },
      { key: 'coming-of-age', votes: 30 },
      { key: 'true-ending', votes: 12 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'fan',
        translationGroup: '雪灯汉化组',
        sizeBytes: 4_831_838_208,
        note: '完整汉化，修正了 2.0 版本中的部分错字与排版问题。',
        links: [
          { label: '网盘 A', url: 'https://example.com/hikari-demo/etoile/zh-hans', password: 'hk2026' },
          { label: '网盘 B', url: 'https://example.org/xuedeng/etoile/zh-hans', password: 'hk2026' },
        ],
      },
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'ai',
        sizeBytes: 4_800_120_832,
        note: 'AI 翻译版本，文本流畅度一般，建议优先选择完整汉化。',
        links: [{ label: '网盘 A', url: 'https://example.net/etoile/zh-hans-ai' }],
      },
    ],
  },
  memoria: {
    bangumiId: -1008,
    title: '潮騒のメモリア',
    titleZh: '潮声的记忆',
    aliases: ['Shiosai no Memoria', 'しおメモ'],
    intro:
      '海边小镇“汐见”的夏天，总是伴着潮声一起到来。在灯塔旁的民宿打工度过暑假的主人公，某天清晨在沙滩上发现了一位昏倒的少女。她穿着不合季节的白色连衣裙，手里紧紧攥着一只旧怀表，醒来后却连自己的名字都想不起来。“那我就叫你‘海音’吧。”为了帮助海音找回记忆，主人公与民宿的看板娘、镇上的邮差少女一起，循着怀表背面刻着的日期踏遍了小镇的每个角落。潮起潮落之间，被遗忘的往事正一点点浮出水面。',
    releaseDate: '2025-07-18',
    platforms: ['windows', 'switch'],
    prices: [jpy('通常版', 8800), jpy('限定版', 12800)],
    producers: [
      { key: 'tsukishiro', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher' },
    ],
    staff: [
      { key: 'himuro', role: 'scenario' },
      { key: 'yuzuki', role: 'art' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'mion', role: 'main', voice: 'shirase' },
      { key: 'nagisa', role: 'main', voice: 'serizawa' },
      { key: 'tsugumi', role: 'supporting', voice: 'yukishiro' },
      { key: 'fumi', role: 'appears' },
    ],
    tags: [
      { key: 'seaside', votes: 81 },
      { key: 'summer', votes: 77 },
      { key: 'amnesia', votes: 62 },
      { key: 'pure-love', votes: 58 },
      { key: 'heartwarming', votes: 44 },
      { key: 'twist-ending', votes: 26, spoiler: 1 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'official',
        sizeBytes: 5_637_144_576,
        note: '官方简体中文版，含限定版特典原声集。',
        links: [
          { label: '网盘 A', url: 'https://example.com/hikari-demo/memoria/zh-hans' },
          { label: '网盘 B', url: 'https://example.org/mirror/memoria/zh-hans', password: 'hk2026' },
        ],
      },
    ],
  },
  arcadia: {
    bangumiId: -1009,
    title: '忘却都市アルカディア',
    titleZh: '忘却都市阿卡迪亚',
    aliases: ['Oblivion City Arcadia', '忘却都市'],
    intro:
      '二一九〇年，海上巨构都市“阿卡迪亚”。在这里，市民的记忆每晚都会被上传至中央服务器进行“整理”——痛苦会被淡化，争吵会被抹平，人人都过着无忧无虑的生活。神代朔是一名“记忆审计官”，负责调查记忆数据中出现的异常。某天，他在一份例行报告里发现了一段不属于任何市民的记忆：一个在雨中哭泣的少女，一遍遍呼唤着他的名字。与此同时，城市里开始有人声称“昨天的世界和今天不一样”。为了找到那段记忆的主人，朔潜入了都市的深层区域……',
    releaseDate: '2026-11-06',
    platforms: ['windows', 'ps5'],
    prices: [jpy('通常版', 9800)],
    producers: [{ key: 'aoakari', role: 'developer' }],
    staff: [
      { key: 'asagiri', role: 'scenario' },
      { key: 'takano', role: 'art' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'saku', role: 'main', voice: 'masago' },
      { key: 'ruka', role: 'main', voice: 'serizawa' },
      { key: 'eve', role: 'main', voice: 'yukishiro' },
      { key: 'haibara', role: 'supporting' },
    ],
    tags: [
      { key: 'sci-fi', votes: 57 },
      { key: 'mystery', votes: 49 },
      { key: 'amnesia', votes: 36, spoiler: 2 },
      { key: 'twist-ending', votes: 33, spoiler: 2 },
      { key: 'detective', votes: 21 },
      { key: 'multiple-endings', votes: 14 },
    ],
    downloads: [
      {
        language: 'ja',
        platform: 'windows',
        translationType: 'none',
        sizeBytes: 8_589_934_592,
        note: '日文原版，首发当日版本。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/arcadia/ja' }],
      },
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'ai',
        sizeBytes: 8_601_882_624,
        note: 'AI 翻译试玩补丁，目前仅覆盖共通线，个别线路尚未翻译。',
        links: [
          { label: '网盘 A', url: 'https://example.net/arcadia/zh-hans-ai', password: 'hk2026' },
          { label: '网盘 B', url: 'https://example.org/mirror/arcadia/zh-hans-ai', password: 'hk2026' },
        ],
      },
    ],
  },
  bakery: {
    bangumiId: -1010,
    title: '真夜中ベーカリーの小さな嘘',
    titleZh: '深夜面包房的小小谎言',
    aliases: ['Midnight Bakery', 'まよパン'],
    intro:
      '商店街的尽头，有一家只在午夜十二点到凌晨三点营业的面包房。店主是一位总在打哈欠的年轻女性，店里的每一款面包都附带一个“小小的谎言”：吃下“勇气可颂”就能说出真心话，吃下“晴天吐司”明天一定不会下雨。因为失眠而在深夜街头游荡的主人公，某天推开了这家店的门，从此成了这里的兼职店员。来店的客人们各自怀揣着说不出口的心事——离家出走的少女、迟迟不敢求婚的上班族、想和好却拉不下脸的老夫妇……烤箱里的香气，会陪他们度过这个漫长的夜晚。约六小时的温馨短篇。',
    releaseDate: '2026-11-20',
    platforms: ['windows', 'android'],
    prices: [jpy('通常版', 1800), { edition: '中文数字版', currency: 'CNY', amount: 45 }],
    producers: [{ key: 'yofukashi', role: 'developer' }],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'shimotsuki', role: 'art' },
    ],
    characters: [
      { key: 'mitsuki', role: 'main', voice: 'yukishiro' },
      { key: 'koharu', role: 'supporting', voice: 'serizawa' },
      { key: 'saeki', role: 'appears' },
    ],
    tags: [
      { key: 'heartwarming', votes: 29 },
      { key: 'slice-of-life', votes: 24 },
      { key: 'comedy', votes: 11 },
    ],
    downloads: [
      {
        language: 'zh-Hans',
        platform: 'windows',
        translationType: 'official',
        sizeBytes: 1_073_741_824,
        note: '社团官方中文版，与日文版同步上线。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/bakery/windows' }],
      },
      {
        language: 'zh-Hans',
        platform: 'android',
        translationType: 'official',
        sizeBytes: 734_003_200,
        note: '安卓版，支持竖屏阅读模式。',
        links: [{ label: '网盘 A', url: 'https://example.com/hikari-demo/bakery/android', password: 'hk2026' }],
      },
    ],
  },
  unisonEncore: {
    bangumiId: -1011,
    title: 'きらめきステージ☆ユニゾン! アンコール',
    titleZh: '闪耀舞台☆齐声！安可',
    aliases: ['Kirameki Stage Unison! Encore', 'きらユニEN'],
    intro:
      '经历了那个热闹非凡的秋天之后，星见丘学园偶像部迎来了新的学年。部员暴增、预算翻倍，连专属练习室都有了——本以为从此一帆风顺，谁知学生会却突然宣布：“偶像部与轻音部必须在文化祭上一决胜负，输的一方当场解散！”新登场的轻音部部长是个把吉他当成生命的“不良少女”，而她似乎和部长彩叶之间有一段不为人知的过去。这一次，舞台上不只有欢笑，还有属于少女们的较量与和解。系列续作，新增节奏游戏模式与全新演唱曲十五首。',
    releaseDate: '2026-11-27',
    platforms: ['windows', 'switch', 'android', 'ios'],
    prices: [jpy('通常版', 8800), jpy('限定版', 13800)],
    producers: [
      { key: 'itoguruma', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher' },
    ],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'yuzuki', role: 'character_design' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'iroha', role: 'main', voice: 'shirase' },
      { key: 'nene', role: 'main', voice: 'serizawa' },
      { key: 'ririka', role: 'main', voice: 'yukishiro' },
      { key: 'hibiki', role: 'supporting' },
      { key: 'kurokawa', role: 'appears' },
    ],
    tags: [
      { key: 'idol', votes: 18 },
      { key: 'music', votes: 16 },
      { key: 'school', votes: 12 },
      { key: 'comedy', votes: 9 },
    ],
  },
  prelude: {
    bangumiId: -1012,
    title: '雪解けのプレリュード',
    titleZh: '雪融前奏曲',
    aliases: ['Yukidoke no Prelude', '雪プレ'],
    intro:
      '雪见泽的春天总是来得很晚。三月，积雪尚未消融，小城的调律工坊却迎来了一位不速之客——因为一场意外失去了右手部分知觉的少女钢琴家，望月诗织。她转学到这座北国小城，只为寻找一首据说“只在雪融化时才能听见”的曲子。受师傅所托照顾她的主人公，是一个早已放弃了钢琴的调律师学徒。两人在旧剧场的那架三角钢琴前相遇，一个在等待春天，一个在逃避过去。《白银舞星》同一世界观的全新作品，讲述雪见泽另一段关于音乐与重新出发的故事。',
    releaseDate: '2026-12-18',
    platforms: ['windows'],
    prices: [jpy('通常版', 9800), jpy('限定版', 15800)],
    nsfw: true,
    producers: [{ key: 'tsukishiro', role: 'developer' }],
    staff: [
      { key: 'himuro', role: 'scenario' },
      { key: 'shimotsuki', role: 'character_design' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'shiori', role: 'main', voice: 'serizawa' },
      { key: 'kaede', role: 'main', voice: 'shirase' },
      { key: 'yukine', role: 'appears', voice: 'yukishiro' },
      { key: 'konoha', role: 'appears' },
    ],
    tags: [
      { key: 'winter', votes: 8 },
      { key: 'music', votes: 7 },
      { key: 'pure-love', votes: 6 },
    ],
  },
  kotodama: {
    bangumiId: -1013,
    title: 'ことだまシグナル',
    titleZh: '言灵信号',
    aliases: ['Kotodama Signal', 'ことシグ'],
    intro:
      '某天早上醒来，主人公发现自己说出口的话会变成肉眼可见的“文字”飘浮在空中——夸奖会变成闪闪发亮的金色字体，谎话则会冒出可疑的紫色烟雾。更糟糕的是，这种“言灵信号”只有他和另外三名少女能看见：嘴硬心软的风纪委员、说话从不经过大脑的同班同学，以及一位自称来自“语言研究所”的神秘转学生。为了查明原因、恢复正常，四人组成了“言灵对策委员会”，可每一次开口都可能引发一场社死事故……满屏弹幕式的爆笑校园喜剧，口是心非的恋爱也将被一一“看穿”。',
    releaseDate: '2027-01-29',
    platforms: ['windows'],
    prices: [jpy('通常版', 8800)],
    nsfw: true,
    producers: [{ key: 'itoguruma', role: 'developer' }],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'yuzuki', role: 'art' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'makoto', role: 'main', voice: 'serizawa' },
      { key: 'ran', role: 'main', voice: 'shirase' },
      { key: 'noa', role: 'main', voice: 'yukishiro' },
    ],
    tags: [
      { key: 'comedy', votes: 6 },
      { key: 'school', votes: 5 },
      { key: 'sci-fi', votes: 3 },
      { key: 'pure-love', votes: 2 },
    ],
  },
  bells: {
    bangumiId: -1014,
    title: '魔女と七つの鐘',
    titleZh: '魔女与七口钟',
    aliases: ['The Witch and the Seven Bells', 'まななな'],
    intro:
      '被群山环抱的钟楼之城“梅尔维尔”，城中七座钟楼分别守护着七种时刻：黎明、正午、黄昏、安息、祈祷、丰收与终焉。传说只要七口钟同时响起，沉睡在城市地下的魔女就会醒来。见习钟守诺艾尔在继承师父衣钵的第一天，便发现第七座钟楼里的钟竟然凭空消失了。与此同时，城里出现了一位自称“前来回收钟声”的少女魔女。她是威胁，还是唯一的线索？必须在七天之内找回失落的钟声，否则终焉的钟声将响彻整座城市。多分支结局的奇幻悬疑冒险。',
    releaseDate: '2027-03-19',
    platforms: ['windows', 'switch'],
    prices: [jpy('通常版', 3980)],
    producers: [
      { key: 'touro', role: 'developer' },
      { key: 'tsuzuriboshi', role: 'publisher' },
    ],
    staff: [
      { key: 'shimotsuki', role: 'character_design' },
      { key: 'katsuragi', role: 'music' },
    ],
    characters: [
      { key: 'noel', role: 'main', voice: 'masago' },
      { key: 'viola', role: 'main', voice: 'yukishiro' },
      { key: 'miria', role: 'supporting', voice: 'serizawa' },
    ],
    tags: [
      { key: 'fantasy', votes: 4 },
      { key: 'mystery', votes: 3 },
      { key: 'multiple-endings', votes: 2 },
    ],
  },
  radio: {
    bangumiId: -1015,
    title: '放課後ラジオは眠らない',
    titleZh: '放学后的电台不眠',
    aliases: ['After-school Radio Never Sleeps', 'ほうラジ'],
    intro:
      '在即将废校的海边高中里，广播部只剩下最后一名部员。为了让这所学校的声音留到最后一天，她每天放学后都会独自对着麦克风，主持一档谁也不知道有没有人在听的节目——直到某天，广播室的信箱里出现了第一封听众来信。寄信人署名“深夜的邮递员”，信里写着一个只有她才知道的秘密。从那天起，小小的广播节目开始收到越来越多的来信：告白、道歉、迟到了十年的感谢……熬夜堂的全新中篇，目前仍在开发中，发售日未定。',
    releaseDate: null,
    platforms: ['windows'],
    prices: [],
    producers: [{ key: 'yofukashi', role: 'developer' }],
    staff: [
      { key: 'minase', role: 'scenario' },
      { key: 'shimotsuki', role: 'art' },
      { key: 'saegusa', role: 'music' },
    ],
    characters: [
      { key: 'michiru', role: 'main', voice: 'shirase' },
      { key: 'ritsu', role: 'main', voice: 'masago' },
      { key: 'postman', role: 'appears' },
    ],
    tags: [
      { key: 'school', votes: 3 },
      { key: 'music', votes: 2 },
      { key: 'slice-of-life', votes: 2 },
      { key: 'seaside', votes: 1 },
    ],
  },
  transit: {
    bangumiId: -1016,
    title: '星屑トランジット',
    titleZh: '星屑中转站',
    aliases: ['Stardust Transit'],
    intro:
      '距离地球三十八万公里的月面中转站“星门”，是前往外行星殖民地的最后一站。刚刚分配到这里的新人管制员，每天都要处理数千名旅客的入境手续、货运调度和各种稀奇古怪的投诉。某天，一艘本应在二十年前失踪的客运飞船突然请求停靠，而船上唯一的乘客是一位外表只有十几岁的少女，她坚称自己“只离开了一周”。来来往往的旅客，各自带着无法对人说起的理由。苍灯软件全新企划，以中转站为舞台的科幻群像剧，发售日未定。',
    releaseDate: null,
    platforms: ['windows', 'ps5'],
    prices: [],
    producers: [{ key: 'aoakari', role: 'developer' }],
    staff: [
      { key: 'asagiri', role: 'director' },
      { key: 'asagiri', role: 'scenario' },
      { key: 'takano', role: 'art' },
    ],
    characters: [
      { key: 'kaname', role: 'main', voice: 'masago' },
      { key: 'mira', role: 'main', voice: 'shirase' },
      { key: 'anna', role: 'supporting', voice: 'yukishiro' },
    ],
    tags: [
      { key: 'sci-fi', votes: 5 },
      { key: 'mystery', votes: 2 },
      { key: 'slice-of-life', votes: 1 },
    ],
  },
} satisfies Record<string, DemoGame>;
export type GameKey = keyof typeof games;

/** Each pair is written both ways: [game, related game, what the related game is to the first, and back]. */
export const relations: [GameKey, GameKey, Relation, Relation][] = [
  ['semishigure', 'semishigureAfter', 'fandisc', 'prequel'],
  ['amaoto', 'amaotoKiteki', 'sequel', 'prequel'],
  ['unison', 'unisonEncore', 'sequel', 'prequel'],
  ['etoile', 'prelude', 'same_series', 'same_series'],
];
