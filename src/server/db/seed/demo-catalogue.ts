import type {
  CHARACTER_ROLES,
  DownloadLanguage,
  GalgamePrice,
  Platform,
  PRODUCER_ROLES,
  RELATIONS,
  STAFF_ROLES,
  TranslationType,
} from '../../../shared/catalogue.ts';
import {
  addRelation,
  refreshTagCounts,
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
  type CharacterInput,
  type PersonInput,
  type ProducerInput,
} from '../../modules/catalogue/catalogue.writer.ts';
import type { Db } from '../database.ts';

// Original, fictional demo catalogue for local trials: every producer, person, character, game and
// translation group below is invented. Games carry fixed negative Bangumi ids (-1001…) and everything
// else is matched by name, so running the seed again updates the same rows instead of adding new ones.
// Download links only point at the reserved example.com / example.org / example.net domains.

type ProducerRole = (typeof PRODUCER_ROLES)[number];
type StaffRole = (typeof STAFF_ROLES)[number];
type CharacterRole = (typeof CHARACTER_ROLES)[number];
type Relation = (typeof RELATIONS)[number];

const producers = {
  tsukishiro: {
    name: '月白工房',
    nameZh: '月白工坊',
    aliases: ['Tsukishiro Kobo'],
    kind: 'company',
    website: 'https://example.com/tsukishiro-kobo',
    description:
      '成立于 2017 年的 Galgame 品牌，以“夏日、乡间与纯爱”为创作核心。作品画面清新、节奏舒缓，擅长在平淡的日常里悄悄埋下情感伏笔，再于结局处一并回收。代表作《蝉雨回响》系列在玩家间口碑极佳，被不少人称为近年“夏日系”的新标杆；近作则把舞台搬到了北国雪城，尝试更内敛的冬日恋爱故事。',
  },
  aoakari: {
    name: '蒼灯ソフト',
    nameZh: '苍灯软件',
    aliases: ['Aoakari Soft'],
    kind: 'company',
    website: 'https://example.com/aoakari-soft',
    description:
      '专注悬疑、推理与科幻题材的品牌，由一群推理小说爱好者创立。作品以严谨的线索设计和多线交织的叙事闻名，“每一条线索都有意义”是他们对玩家的承诺。代表作《雨声侦探事务所》系列开创了“雨天限定推理”的独特玩法，近年开始挑战更宏大的近未来科幻题材。',
  },
  yofukashi: {
    name: '夜更かし堂',
    nameZh: '熬夜堂',
    aliases: ['Yofukashi-do'],
    kind: 'amateur',
    website: '',
    description:
      '由三名成员组成的同人社团，作品多为篇幅精巧的中短篇，题材涵盖校园、日常与发生在深夜里的小小奇迹。社团名来自成员们“永远在熬夜赶稿”的共同习惯。作品体量不大，却总能用几个小时的故事让人心头一暖，每逢展会新刊都很快售罄。',
  },
  tsuzuriboshi: {
    name: '綴星エンタテインメント',
    nameZh: '缀星娱乐',
    aliases: ['Tsuzuriboshi Entertainment'],
    kind: 'company',
    website: 'https://example.com/tsuzuriboshi',
    description:
      '专注视觉小说的游戏发行商，负责多家中小品牌作品的家用机移植与多语言发行。近年来积极推动官方中文版与日文版同步发售，移植作品的本地化质量与细致的字体排版深受海外玩家好评。',
  },
  itoguruma: {
    name: '糸車スタジオ',
    nameZh: '纺车工作室',
    aliases: ['Itoguruma Studio'],
    kind: 'company',
    website: 'https://example.com/itoguruma-studio',
    description:
      '以喜剧、偶像与音乐题材为主的开发团队，作品节奏明快、笑点密集，角色之间的吐槽对话堪称一绝。配乐与演唱曲的质量尤其出色，每部作品的原声集都是玩家间的热门收藏。',
  },
  touro: {
    name: '灯籠ノ庭',
    nameZh: '灯笼之庭',
    aliases: ['Touro no Niwa'],
    kind: 'individual',
    website: 'https://example.org/touro-no-niwa',
    description:
      '独立创作者“灯笼”的个人品牌，剧本、程序与大部分美术都由一人完成，角色设计与配乐则邀请客座创作者合作。作品氛围静谧而略带忧伤，常借末日、魔法等非日常设定，讲述关于“告别”与“重新出发”的故事。',
  },
} satisfies Record<string, ProducerInput>;
type ProducerKey = keyof typeof producers;

const persons = {
  himuro: {
    name: '氷室 灯真',
    nameZh: '冰室灯真',
    gender: 'male',
    birthday: '03-14',
    description:
      '剧本家。擅长以细腻的乡村风景描写和层层铺陈的伏笔构筑故事，代表作《蝉雨回响》。信条是“伏笔要埋在读者最放松的地方”。',
  },
  minase: {
    name: '水無瀬 栞',
    nameZh: '水无濑栞',
    gender: 'female',
    birthday: '07-07',
    description: '剧本家。同人社团出身，文风轻快温柔，擅长日常对话与群像喜剧，也总能在最后写出让人眼眶一热的收尾。',
  },
  asagiri: {
    name: '朝霧 ナギ',
    nameZh: '朝雾凪',
    gender: 'male',
    birthday: '11-02',
    description: '剧本家、监督。资深推理小说迷，作品以严密的线索设计与出人意料的反转著称，被玩家戏称为“雨天的魔术师”。',
  },
  yuzuki: {
    name: '柚木 こはく',
    nameZh: '柚木琥珀',
    gender: 'female',
    birthday: '05-21',
    description: '原画家、角色设计。笔下的少女表情生动，尤其擅长夏日阳光与透明感十足的色彩表现。',
  },
  takano: {
    name: '鷹野 千景',
    nameZh: '鹰野千景',
    gender: 'female',
    birthday: '09-30',
    description: '原画家。线条利落，擅长光影对比强烈的构图，为多部悬疑与科幻作品担任美术。',
  },
  shimotsuki: {
    name: '霜月 りお',
    nameZh: '霜月莉央',
    gender: 'female',
    birthday: '12-08',
    description: '角色设计、原画。以冬日与奇幻题材见长，服装设计细节丰富，设定资料集常常一上架就售罄。',
  },
  katsuragi: {
    name: '葛城 遼',
    nameZh: '葛城辽',
    gender: 'male',
    birthday: '01-19',
    description: '作曲家。钢琴与弦乐编曲温润动人，为多部作品创作的主题曲在玩家间广为传唱。',
  },
  saegusa: {
    name: '三枝 ハル',
    nameZh: '三枝春',
    gender: 'female',
    birthday: '04-04',
    description: '作曲家、编曲。电子乐与流行乐双修，偶像题材作品的演唱曲几乎都出自她手。',
  },
  shirase: {
    name: '白瀬 みのり',
    nameZh: '白濑实里',
    gender: 'female',
    birthday: '08-15',
    description: '声优。声线清澈明亮，擅长元气少女与青梅竹马类角色，笑声极具感染力。',
  },
  yukishiro: {
    name: '雪代 あかね',
    nameZh: '雪代茜',
    gender: 'female',
    birthday: '02-02',
    description: '声优。低而柔的声线富有辨识度，常演绎神秘、冷静又暗藏温柔的角色。',
  },
  serizawa: {
    name: '芹沢 ことね',
    nameZh: '芹泽琴音',
    gender: 'female',
    birthday: '10-10',
    description: '声优。以可爱系声线为主，戏路却极宽，从怯生生的学妹到毒舌的天才少女都能驾驭。',
  },
  masago: {
    name: '真砂 蒼',
    nameZh: '真砂苍',
    gender: 'male',
    birthday: '06-26',
    description: '声优。沉稳的青年音，在多部作品中担任有语音的男主角与关键配角。',
  },
} satisfies Record<string, PersonInput>;
type PersonKey = keyof typeof persons;

const tags = {
  school: { name: 'school', nameZh: '校园', category: 'setting', description: '以学校生活为主要舞台的作品。' },
  summer: { name: 'summer', nameZh: '夏日', category: 'setting', description: '故事发生在夏天，蝉鸣、祭典与晚霞。' },
  winter: { name: 'winter', nameZh: '冬日', category: 'setting', description: '大雪、呵气成霜，适合在被炉里慢慢读。' },
  countryside: {
    name: 'countryside',
    nameZh: '乡村',
    category: 'setting',
    description: '远离都市的小镇、山村与田园风光。',
  },
  seaside: { name: 'seaside', nameZh: '海边', category: 'setting', description: '潮声、灯塔与海风，舞台就在海边。' },
  fantasy: {
    name: 'fantasy',
    nameZh: '奇幻',
    category: 'setting',
    description: '魔法、异世界或带有奇幻元素的世界观。',
  },
  'sci-fi': { name: 'sci-fi', nameZh: '科幻', category: 'setting', description: '近未来、宇宙或科技设定驱动的故事。' },
  'post-apocalypse': {
    name: 'post-apocalypse',
    nameZh: '末日废土',
    category: 'setting',
    description: '文明衰落之后的世界，在废墟中寻找希望。',
  },
  'pure-love': { name: 'pure-love', nameZh: '纯爱', category: 'content', description: '专一而真挚的恋爱故事。' },
  'slice-of-life': {
    name: 'slice-of-life',
    nameZh: '日常',
    category: 'content',
    description: '以平淡温馨的日常生活为主要内容。',
  },
  comedy: {
    name: 'comedy',
    nameZh: '喜剧',
    category: 'content',
    description: '笑点密集，吐槽与搞笑桥段占了很大比重。',
  },
  tragedy: { name: 'tragedy', nameZh: '悲剧', category: 'content', description: '基调哀伤，请备好纸巾。' },
  heartwarming: {
    name: 'heartwarming',
    nameZh: '治愈',
    category: 'content',
    description: '读完之后心里暖洋洋的作品。',
  },
  idol: { name: 'idol', nameZh: '偶像', category: 'content', description: '以偶像活动为主题，舞台、练习与应援。' },
  music: { name: 'music', nameZh: '音乐', category: 'content', description: '音乐与演奏在故事中占有重要地位。' },
  'multiple-endings': {
    name: 'multiple-endings',
    nameZh: '多结局',
    category: 'content',
    description: '根据选择走向不同的结局。',
  },
  'true-ending': {
    name: 'true-ending',
    nameZh: '真结局',
    category: 'content',
    description: '通关各条路线后解锁、揭示全貌的最终结局。',
  },
  'time-loop': { name: 'time-loop', nameZh: '时间循环', category: 'plot', description: '同一段时间不断重复。' },
  mystery: { name: 'mystery', nameZh: '悬疑', category: 'plot', description: '围绕谜团展开，真相逐步揭晓。' },
  detective: { name: 'detective', nameZh: '侦探推理', category: 'plot', description: '收集线索、推理真相的侦探故事。' },
  amnesia: { name: 'amnesia', nameZh: '失忆', category: 'plot', description: '角色失去了记忆，过去是故事的关键。' },
  'twist-ending': {
    name: 'twist-ending',
    nameZh: '反转结局',
    category: 'plot',
    description: '结局颠覆前文认知。标签本身就可能是剧透。',
  },
  'coming-of-age': {
    name: 'coming-of-age',
    nameZh: '成长',
    category: 'plot',
    description: '主人公在故事中克服困境、有所成长。',
  },
} satisfies Record<
  string,
  { name: string; nameZh: string; category: 'content' | 'setting' | 'plot'; description: string }
>;
type TagKey = keyof typeof tags;

const characters = {
  // 蝉時雨のリフレイン
  hiyori: {
    name: '夏目 ひより',
    nameZh: '夏目日和',
    gender: 'female',
    birthday: '08-01',
    description:
      '主人公的青梅竹马，在日向野土生土长的元气少女。总是赤着脚在坡道上奔跑，笑起来像夏天的太阳。梦想是有一天去看看真正的大海。',
  },
  shizuku: {
    name: '榊 しずく',
    nameZh: '榊雫',
    gender: 'female',
    birthday: '07-17',
    description: '独自守着山顶神社的少女，话很少，总是望着远方的天空。似乎比任何人都更早察觉到这个夏天的异样。',
  },
  miu: {
    name: '宮下 みう',
    nameZh: '宫下美羽',
    gender: 'female',
    birthday: '03-03',
    description: '小镇杂货店的看板娘，日和的学妹。好奇心旺盛，随身带着一本“独家新闻”笔记本，立志成为小镇第一名记者。',
  },
  chiyo: {
    name: '早瀬 千代',
    nameZh: '早濑千代',
    gender: 'female',
    birthday: '09-15',
    description: '主人公的祖母，在镇上经营一家小小的和果子店。招牌水羊羹是孩子们夏天最期待的点心。',
  },
  // 雨音探偵事務所
  rei: {
    name: '雨宮 レイ',
    nameZh: '雨宫玲',
    gender: 'female',
    birthday: '06-06',
    description:
      '雨宫侦探事务所所长，自称“名侦探”的少女。只在下雨天接受委托，理由是“晴天脑袋转不动”。观察力惊人，生活能力却几乎为零。',
  },
  toru: {
    name: '久遠 透',
    nameZh: '久远透',
    gender: 'male',
    birthday: '10-21',
    description:
      '在雾浦读书的大学生，因为一张“仅限雨天上班”的招聘启事成了事务所的助手。性格认真，是事务所里唯一会记账的人。',
  },
  madoka: {
    name: '千歳 まどか',
    nameZh: '千岁圆',
    gender: 'female',
    birthday: '01-28',
    description: '雾浦警署搜查一课的年轻刑警，玲的老相识。嘴上抱怨“外行别插手”，却总会偷偷把案件资料带到事务所来。',
  },
  koga: {
    name: '古賀 源三',
    nameZh: '古贺源三',
    gender: 'male',
    birthday: '11-30',
    description: '事务所楼下“雨宿”咖啡馆的老板。沉默寡言，煮的咖啡却有让人冷静下来的魔力，是玲最重要的“赞助人”。',
  },
  kaito: {
    name: '霧島 カイト',
    nameZh: '雾岛海斗',
    gender: 'male',
    birthday: '08-08',
    description: '自称“雾浦真正的名侦探”的天才少年，只在晴天活动。处处与玲针锋相对，推理能力却货真价实。',
  },
  // 終末のプラネタリウム
  sora: {
    name: 'ソラ',
    nameZh: '索拉',
    gender: 'male',
    birthday: '04-22',
    description: '在废墟中独自生活的少年修理工，能让任何生锈的机械重新动起来。一直想亲眼看看天象仪里的“真正的星空”。',
  },
  hoshino: {
    name: 'ほしの',
    nameZh: '星乃',
    gender: 'female',
    birthday: '07-07',
    description:
      '天象仪的解说机器人，外表是一位安静的少女。记得全天八十八个星座的名字与故事，却想不起自己为何会在控制室里沉睡。',
  },
  riko: {
    name: 'リコ',
    nameZh: '莉子',
    gender: 'female',
    birthday: '05-05',
    description: '往来于废墟之间的商队少女，以物易物的行家。嘴上总说“亏本的生意不做”，却常常偷偷多塞给索拉几颗螺丝。',
  },
  // きらめきステージ☆ユニゾン!
  iroha: {
    name: '日向 いろは',
    nameZh: '日向彩叶',
    gender: 'female',
    birthday: '04-01',
    description: '偶像部部长，嗓门比实力更大的元气担当。坚信“只要大声笑出来，观众就会喜欢上我们”，是全队的精神支柱。',
  },
  nene: {
    name: '月島 ねね',
    nameZh: '月岛宁宁',
    gender: 'female',
    birthday: '11-11',
    description:
      '作曲与舞蹈都堪称天才的一年级生，却是个严重的社恐，只有站上舞台才能正常说话。随身带着一只名叫“小拍子”的兔子玩偶。',
  },
  ririka: {
    name: '鳳 リリカ',
    nameZh: '凤莉莉卡',
    gender: 'female',
    birthday: '12-24',
    description:
      '企业家千金，把偶像活动当作“商业计划”来经营的现实派。精通数据分析与宣传策划，私下却是偶像周边的狂热收藏家。',
  },
  kurokawa: {
    name: '黒川 詠子',
    nameZh: '黑川咏子',
    gender: 'female',
    birthday: '09-09',
    description: '偶像部的顾问老师，也是硬把主人公塞进偶像部的“罪魁祸首”。据说学生时代曾经……总之她本人不愿提起。',
  },
  hibiki: {
    name: '真柴 響',
    nameZh: '真柴响',
    gender: 'female',
    birthday: '02-29',
    description:
      '轻音部部长，把吉他当成生命的“不良少女”。说话毫不客气，对音乐却认真得近乎偏执，似乎与彩叶有一段不为人知的过去。',
  },
  // 白銀のエトワール / 雪解けのプレリュード
  yukine: {
    name: '白石 雪音',
    nameZh: '白石雪音',
    gender: 'female',
    birthday: '01-15',
    description:
      '曾被誉为“天才”的芭蕾舞者，在一次公演后突然销声匿迹。如今独自在废弃的旧礼堂里练习，沉默而倔强，只有跳舞时才会露出真正的表情。',
  },
  yui: {
    name: '桜庭 ゆい',
    nameZh: '樱庭结衣',
    gender: 'female',
    birthday: '10-03',
    description: '主人公的同班同学，家里经营着小城唯一的剧场。开朗又爱操心，为了阻止剧场被拆除四处奔走。',
  },
  konoha: {
    name: '柊 このは',
    nameZh: '柊木叶',
    gender: 'female',
    birthday: '03-27',
    description: '雪见泽车站前咖啡馆的小女儿，初中生。总爱跟在主人公身后喊“前辈”，是镇上消息最灵通的人。',
  },
  soichiro: {
    name: '桜庭 宗一郎',
    nameZh: '樱庭宗一郎',
    gender: 'male',
    birthday: '05-02',
    description: '结衣的父亲，雪见泽剧场的老板。年轻时是一名舞台灯光师，至今仍每天亲手擦拭剧场的每一盏灯。',
  },
  shiori: {
    name: '望月 詩織',
    nameZh: '望月诗织',
    gender: 'female',
    birthday: '03-08',
    description:
      '转学到雪见泽的少女钢琴家，因一场意外失去了右手的部分知觉。为了寻找一首“只在雪融化时才能听见”的曲子而来到这座小城。',
  },
  kaede: {
    name: '真鍋 かえで',
    nameZh: '真锅枫',
    gender: 'female',
    birthday: '11-20',
    description: '调律工坊老师傅的女儿，主人公的师姐。手艺精湛、说话直来直去，对迟迟不肯碰钢琴的主人公格外严厉。',
  },
  // 潮騒のメモリア
  mion: {
    name: '海音',
    nameZh: '海音',
    gender: 'female',
    birthday: '',
    description:
      '在汐见的沙滩上被发现的神秘少女，失去了所有记忆。穿着不合季节的白色连衣裙，手里紧握着一只停走的旧怀表。“海音”是主人公替她取的名字。',
  },
  nagisa: {
    name: '汐見 なぎさ',
    nameZh: '汐见渚',
    gender: 'female',
    birthday: '07-20',
    description: '灯塔旁民宿“潮风庄”的看板娘，主人公的打工前辈。做事麻利、爱开玩笑，却对小镇的过去讳莫如深。',
  },
  tsugumi: {
    name: '浜崎 つぐみ',
    nameZh: '滨崎鸫',
    gender: 'female',
    birthday: '05-12',
    description: '骑着红色自行车穿梭于小镇的邮差少女，认识镇上的每一户人家。相信“每一封信都一定能送到该去的地方”。',
  },
  fumi: {
    name: '汐見 ふみ',
    nameZh: '汐见文',
    gender: 'female',
    birthday: '02-11',
    description: '潮风庄的女将，渚的祖母。做得一手好菜，常在黄昏时坐在檐廊下眺望灯塔。',
  },
  // 忘却都市アルカディア
  saku: {
    name: '神代 朔',
    nameZh: '神代朔',
    gender: 'male',
    birthday: '09-01',
    description:
      '阿卡迪亚的“记忆审计官”，负责调查市民记忆数据中的异常。冷静理性，坚信“被整理过的记忆才是幸福”——直到他发现了那段不属于任何人的记忆。',
  },
  ruka: {
    name: '綾瀬 ルカ',
    nameZh: '绫濑琉花',
    gender: 'female',
    birthday: '04-18',
    description:
      '游走于都市深层区域的天才黑客，拒绝接受记忆整理的“未整理者”。毒舌又爱捉弄人，是朔在调查中不得不依赖的搭档。',
  },
  eve: {
    name: 'イヴ',
    nameZh: '伊芙',
    gender: 'female',
    birthday: '',
    description: '只存在于那段神秘记忆中的少女，在雨中一遍遍呼唤着朔的名字。没有人知道她是谁。',
  },
  haibara: {
    name: '灰原 崇',
    nameZh: '灰原崇',
    gender: 'male',
    birthday: '02-17',
    description: '记忆管理局局长，朔的上司兼恩人。温和而可靠，被市民视为“守护幸福的人”。',
  },
  // 真夜中ベーカリーの小さな嘘
  mitsuki: {
    name: '夜見 ミツキ',
    nameZh: '夜见美月',
    gender: 'female',
    birthday: '12-01',
    description:
      '深夜面包房的年轻店主，总是一副没睡醒的样子，烤出来的面包却好吃得不可思议。每款面包附带的“小小谎言”都出自她手。',
  },
  koharu: {
    name: '来栖 こはる',
    nameZh: '来栖小春',
    gender: 'female',
    birthday: '06-03',
    description: '离家出走后在深夜街头徘徊的初中生，被美月以“试吃员”的名义收留。嘴硬心软，最喜欢的面包是“勇气可颂”。',
  },
  saeki: {
    name: '佐伯 誠',
    nameZh: '佐伯诚',
    gender: 'male',
    birthday: '10-15',
    description: '每晚两点准时来买“晴天吐司”的上班族常客，西装口袋里一直揣着一枚还没送出去的戒指。',
  },
  // ことだまシグナル
  makoto: {
    name: '風見 まこと',
    nameZh: '风见真琴',
    gender: 'female',
    birthday: '05-30',
    description:
      '一丝不苟的风纪委员，嘴硬心软的代名词。在言灵信号之下，她的每一句“才不是为了你”都会冒出一团可疑的紫烟。',
  },
  ran: {
    name: '日下部 らん',
    nameZh: '日下部岚',
    gender: 'female',
    birthday: '08-22',
    description: '主人公的同班同学，说话从不经过大脑的开心果。心里想什么嘴上就说什么，因此成了唯一不怕言灵信号的人。',
  },
  noa: {
    name: '久世 ノア',
    nameZh: '久世诺亚',
    gender: 'female',
    birthday: '',
    description: '自称来自“语言研究所”的神秘转学生，似乎知道言灵信号出现的原因。总是用敬语说着让人摸不着头脑的话。',
  },
  // 魔女と七つの鐘
  noel: {
    name: 'ノエル',
    nameZh: '诺艾尔',
    gender: 'male',
    birthday: '12-25',
    description:
      '钟楼之城梅尔维尔的见习钟守，继承师父衣钵的第一天就遇上了钟声失窃事件。认真又有点死脑筋，能分辨出每一口钟细微的音色差别。',
  },
  viola: {
    name: 'ヴィオラ',
    nameZh: '薇奥拉',
    gender: 'female',
    birthday: '10-31',
    description: '自称“前来回收钟声”的少女魔女，来历成谜。举止优雅，说起话来总像是在念童话故事的开场白。',
  },
  miria: {
    name: 'ミリア',
    nameZh: '米莉娅',
    gender: 'female',
    birthday: '04-09',
    description: '城中面包坊的看板娘，诺艾尔的青梅竹马。胆子很小，却总在关键时刻第一个站出来。',
  },
  // 放課後ラジオは眠らない
  michiru: {
    name: '広瀬 みちる',
    nameZh: '广濑满',
    gender: 'female',
    birthday: '09-17',
    description:
      '即将废校的海边高中里，广播部的最后一名部员。每天放学后独自主持一档不知道有没有人在听的节目，口头禅是“今天也准时开播”。',
  },
  ritsu: {
    name: '相沢 律',
    nameZh: '相泽律',
    gender: 'male',
    birthday: '01-07',
    description: '在废校前最后一个学期转学而来的少年，寡言而温柔。不知为何，总会在广播开始前准时出现在广播室门口。',
  },
  postman: {
    name: '深夜の郵便屋',
    nameZh: '深夜的邮递员',
    gender: '',
    birthday: '',
    description: '给广播节目寄来第一封信的神秘听众，信里写着一个只有满才知道的秘密。',
  },
  // 星屑トランジット
  kaname: {
    name: '三好 カナメ',
    nameZh: '三好要',
    gender: 'male',
    birthday: '03-21',
    description: '刚刚分配到月面中转站的新人管制员，认真得有点笨拙，每天都在入境手续与奇怪投诉之间手忙脚乱。',
  },
  mira: {
    name: 'ミラ',
    nameZh: '米拉',
    gender: 'female',
    birthday: '',
    description: '乘坐二十年前失踪的客运飞船抵达中转站的少女，坚称自己“只离开了一周”。对中转站的一切都充满好奇。',
  },
  anna: {
    name: 'アンナ・ヴェルナー',
    nameZh: '安娜·韦尔纳',
    gender: 'female',
    birthday: '11-05',
    description: '中转站的管制主任，雷厉风行的“铁娘子”。据说二十年前，她也曾在这座中转站目送过一艘飞船离港。',
  },
} satisfies Record<string, CharacterInput>;
type CharacterKey = keyof typeof characters;

interface DemoDownload {
  language: DownloadLanguage;
  platform: Platform;
  translationType: TranslationType;
  translationGroup?: string;
  sizeBytes: number;
  note: string;
  links: { label: string; url: string; password?: string }[];
}

interface DemoGame {
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

const jpy = (edition: string, amount: number): GalgamePrice => ({ edition, currency: 'JPY', amount });

const games = {
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
type GameKey = keyof typeof games;

/** Each pair is written both ways: [game, related game, what the related game is to the first, and back]. */
const relations: [GameKey, GameKey, Relation, Relation][] = [
  ['semishigure', 'semishigureAfter', 'fandisc', 'prequel'],
  ['amaoto', 'amaotoKiteki', 'sequel', 'prequel'],
  ['unison', 'unisonEncore', 'sequel', 'prequel'],
  ['etoile', 'prelude', 'same_series', 'same_series'],
];

/** Writes the demo catalogue through the catalogue writer. Safe to run again: it updates in place. */
export async function seedDemoCatalogue(db: Db, now: Date): Promise<{ games: number }> {
  const producerIds = new Map<ProducerKey, number>();
  for (const [key, producer] of Object.entries(producers) as [ProducerKey, ProducerInput][]) {
    producerIds.set(key, await upsertProducer(db, producer, now));
  }
  const personIds = new Map<PersonKey, number>();
  for (const [key, person] of Object.entries(persons) as [PersonKey, PersonInput][]) {
    personIds.set(key, await upsertPerson(db, person, now));
  }
  const characterIds = new Map<CharacterKey, number>();
  for (const [key, character] of Object.entries(characters) as [CharacterKey, CharacterInput][]) {
    characterIds.set(key, await upsertCharacter(db, character, now));
  }
  const tagIds = new Map<TagKey, number>();
  for (const [key, tag] of Object.entries(tags) as [TagKey, (typeof tags)[TagKey]][]) {
    tagIds.set(key, await upsertTag(db, tag, now));
  }

  const id = <K>(ids: Map<K, number>, key: K): number => {
    const found = ids.get(key);
    if (found === undefined) throw new Error(`demo catalogue: unknown key ${String(key)}`);
    return found;
  };

  const gameIds = new Map<GameKey, number>();
  for (const [key, game] of Object.entries(games) as [GameKey, DemoGame][]) {
    // Voice actors are credited once per game, with the characters they voice as the note.
    const voiced = new Map<PersonKey, string[]>();
    for (const c of game.characters) {
      if (c.voice) voiced.set(c.voice, [...(voiced.get(c.voice) ?? []), characters[c.key].nameZh]);
    }
    const gameId = await saveGalgame(
      db,
      {
        bangumiId: game.bangumiId,
        title: game.title,
        titleZh: game.titleZh,
        aliases: game.aliases,
        intro: game.intro,
        releaseDate: game.releaseDate,
        prices: game.prices,
        cover: '',
        images: [],
        nsfw: game.nsfw ?? false,
        status: 'published',
        platforms: game.platforms,
        tags: game.tags.map((t) => ({ tagId: id(tagIds, t.key), votes: t.votes, spoiler: t.spoiler ?? 0 })),
        producers: game.producers.map((p) => ({ producerId: id(producerIds, p.key), role: p.role, note: p.note })),
        staff: [
          ...game.staff.map((s) => ({ personId: id(personIds, s.key), role: s.role, note: s.note })),
          ...[...voiced].map(([person, roles]) => ({
            personId: id(personIds, person),
            role: 'voice' as const,
            note: roles.join('、'),
          })),
        ],
        characters: game.characters.map((c) => ({
          characterId: id(characterIds, c.key),
          role: c.role,
          voicePersonId: c.voice ? id(personIds, c.voice) : null,
        })),
        // Always an array, so a second run replaces the downloads instead of keeping the old ones.
        downloads: (game.downloads ?? []).map((d) => ({ ...d, translationGroup: d.translationGroup ?? '' })),
      },
      now,
    );
    gameIds.set(key, gameId);
  }

  for (const [from, to, relation, back] of relations) {
    await addRelation(db, id(gameIds, from), id(gameIds, to), relation);
    await addRelation(db, id(gameIds, to), id(gameIds, from), back);
  }
  await refreshTagCounts(db);
  return { games: gameIds.size };
}
