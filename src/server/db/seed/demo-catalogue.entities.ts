import type { CHARACTER_ROLES, PRODUCER_ROLES, RELATIONS, STAFF_ROLES } from '../../../shared/catalogue.ts';
import type { CharacterInput, PersonInput, ProducerInput } from '../../modules/catalogue/catalogue.writer.ts';

// Data only: the demo catalogue's producers, people, tags and characters (all invented), keyed by
// a name the games in demo-catalogue.games.ts refer to. demo-catalogue.ts writes them.

export type ProducerRole = (typeof PRODUCER_ROLES)[number];
export type StaffRole = (typeof STAFF_ROLES)[number];
export type CharacterRole = (typeof CHARACTER_ROLES)[number];
export type Relation = (typeof RELATIONS)[number];

export const producers = {
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
export type ProducerKey = keyof typeof producers;

export const persons = {
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
export type PersonKey = keyof typeof persons;

export const tags = {
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
export type TagKey = keyof typeof tags;

export const characters = {
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
export type CharacterKey = keyof typeof characters;
