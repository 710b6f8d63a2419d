import type { PersonInput, ProducerInput } from '../../modules/catalogue/catalogue.writer.ts';
import { upsertPerson, upsertProducer } from '../../modules/catalogue/catalogue.writer.ts';
import { saveLightnovel, saveVolume } from '../../modules/lightnovel/lightnovel.writer.ts';
import type {
  LightnovelProducerRole,
  LightnovelStaffRole,
  SerialStatus,
} from '../../../shared/lightnovel/lightnovel-model.ts';
import { addDays, siteToday } from '../../../shared/site-day.ts';
import type { Db } from '../database.ts';
import { persons as cataloguePersons } from './demo-catalogue.entities.ts';

// Original, fictional demo light novels: eight series (ids 1…8 on a fresh database, in this order),
// their authors and illustrators (a few borrowed from the demo catalogue, the others new), publishers
// and labels. Release dates count back from the seed's day, so "new volumes" always has content.
// Covers are left empty: pages draw the generated cover, as for the demo games. The EPUB seed attaches
// files to the first main volume of series 1–3. Series match by original name and volumes by
// (series, kind, number): running it again updates in place.

const people = {
  kiriya: {
    name: '霧谷 ほたる',
    nameZh: '雾谷萤',
    gender: 'female',
    description: '轻小说作家。以图书馆、旧书店为舞台的温柔群像见长，出道作《星见坂图书室的四季》获文库新人奖。',
  },
  amane: {
    name: '天音 レン',
    nameZh: '天音莲',
    gender: 'male',
    description: '轻小说作家。擅长书信体与双线叙事，文字安静克制，常被读者称为“雨夜系”。',
  },
  tokiwa: {
    name: '常盤 ゆう',
    nameZh: '常盘悠',
    gender: 'female',
    description: '轻小说作家、短篇名手。故事多发生在车站、列车与小镇，结尾总留一点余温。',
  },
  hazuki: {
    name: '葉月 カナタ',
    nameZh: '叶月彼方',
    gender: 'male',
    description: '轻小说作家。喜剧与奇幻两开花，笔下的吐槽节奏被读者誉为“一页三笑”。',
  },
  nanase: {
    name: '七瀬 みお',
    nameZh: '七濑澪',
    gender: 'female',
    description: '插画家。水彩质感的柔和色调与细腻的光线表现是她的招牌，尤其擅长描绘室内的午后阳光。',
  },
  kurose: {
    name: '黒瀬 イツキ',
    nameZh: '黑濑树',
    gender: 'male',
    description: '插画家。线条硬朗、构图大胆，为多部奇幻与科幻轻小说绘制封面与彩页。',
  },
} satisfies Record<string, PersonInput>;

const houses = {
  seisou: {
    name: '星霜書房',
    nameZh: '星霜书房',
    kind: 'company',
    website: 'https://example.com/seisou-shobo',
    description: '老牌文艺出版社，近年以旗下的轻小说文库“星霜文库”吸引了大批年轻读者。',
  },
  seisouBunko: {
    name: '星霜文庫',
    nameZh: '星霜文库',
    kind: 'company',
    website: 'https://example.com/seisou-bunko',
    description: '星霜书房的轻小说文库，主打温情日常与青春群像，封面以淡雅的水彩风格著称。',
  },
  seiran: {
    name: '青藍社',
    nameZh: '青蓝社',
    kind: 'company',
    website: 'https://example.com/seiran-sha',
    description: '以奇幻与冒险题材为主的出版社，每年举办面向新人的“青蓝小说大赏”。',
  },
  seiranNovels: {
    name: '青藍ノベルス',
    nameZh: '青蓝 Novels',
    kind: 'company',
    website: 'https://example.com/seiran-novels',
    description: '青蓝社的轻小说书系，作品多为热血奇幻与异世界冒险，插画阵容豪华。',
  },
  tomoshibi: {
    name: '灯火出版',
    nameZh: '灯火出版',
    kind: 'company',
    website: 'https://example.org/tomoshibi',
    description: '中文轻小说出版社，负责多部日本轻小说的简体中文版，也发掘本土作者。',
  },
  tomoshibiBunko: {
    name: '灯火文庫',
    nameZh: '灯火文库',
    kind: 'company',
    website: 'https://example.org/tomoshibi-bunko',
    description: '灯火出版旗下的轻小说文库，书脊统一为暖橙色，在书店里一眼就能认出。',
  },
} satisfies Record<string, ProducerInput>;

type PersonKey = keyof typeof people | 'yuzuki' | 'shimotsuki' | 'minase';
type HouseKey = keyof typeof houses;

interface DemoVolume {
  kind?: 'main' | 'extra';
  number: number;
  title: string;
  titleZh: string;
  intro: string;
  /** Days before the seed's day (negative: announced, not out yet). */
  daysAgo: number;
  pages: number;
  price: string;
}

interface DemoSeries {
  name: string;
  nameZh: string;
  aliases: string[];
  intro: string;
  serialStatus: SerialStatus;
  staff: [PersonKey, LightnovelStaffRole][];
  producers: [HouseKey, LightnovelProducerRole][];
  volumes: DemoVolume[];
}

const vol = (
  number: number,
  titleZh: string,
  title: string,
  daysAgo: number,
  intro: string,
  pages = 288,
  price = '¥682',
  kind: 'main' | 'extra' = 'main',
): DemoVolume => ({ kind, number, title, titleZh, intro, daysAgo, pages, price });

export const demoSeries: DemoSeries[] = [
  {
    name: '星見坂図書室の四季',
    nameZh: '星见坂图书室的四季',
    aliases: ['Four Seasons of the Hoshimizaka Library', '星见坂'],
    intro:
      '星见坂高中的旧图书室，只在放学后开放一小时。新生春野诗织为了归还一本逾期三十年的书推开了那扇门，从此成了图书委员——以及图书室里唯一一位“读者”的朋友。\n四个季节，十二本书，每一本都藏着一段被人遗忘的心事。',
    serialStatus: 'serialising',
    staff: [
      ['kiriya', 'author'],
      ['nanase', 'illustrator'],
    ],
    producers: [
      ['seisou', 'publisher'],
      ['seisouBunko', 'label'],
    ],
    volumes: [
      vol(
        1,
        '春·借阅证上的名字',
        '春・貸出カードの名前',
        900,
        '一张三十年前的借阅证，把诗织引向了图书室的秘密。',
        304,
        '¥704',
      ),
      vol(
        2,
        '夏·蝉声与书签',
        '夏・蝉時雨と栞',
        620,
        '暑假的图书室只剩下蝉声，和一枚夹在诗集里的押花书签。',
        296,
        '¥704',
      ),
      vol(3, '秋·还书日', '秋・返却日', 330, '文化祭前夕，一本永远“已借出”的书终于回到了书架。', 312, '¥726'),
      vol(4, '冬·最后一页', '冬・最後のページ', 3, '大雪封校的那天，诗织读到了那本书的最后一页。', 320, '¥726'),
      vol(1, '图书委员的假日', '図書委員の休日', 120, '四篇图书委员们的假日小故事。', 224, '¥660', 'extra'),
    ],
  },
  {
    name: '雨夜の手紙',
    nameZh: '雨夜信笺',
    aliases: ['Letters on Rainy Nights'],
    intro:
      '每逢下雨的夜晚，邮局的旧信箱里就会多出一封没有邮票的信。收信人是二十年前失踪的少女，寄信人却写着“明天的你”。\n邮局打工生真白决定回信——横跨二十年的书信往来，就此开始。',
    serialStatus: 'finished',
    staff: [
      ['amane', 'author'],
      ['shimotsuki', 'illustrator'],
    ],
    producers: [
      ['seisou', 'publisher'],
      ['seisouBunko', 'label'],
    ],
    volumes: [
      vol(1, '第一封信', '一通目の手紙', 1500, '一封写给失踪少女的信，出现在雨夜的信箱里。', 272, '¥660'),
      vol(2, '回信', '返信', 1280, '真白寄出的回信，落在了二十年前的雨夜。', 280, '¥660'),
      vol(3, '没有邮票的季节', '切手のない季節', 1010, '信越写越长，两个时代的雨开始重叠。', 288, '¥682'),
      vol(4, '晴天的信笺', '晴れの日の手紙', 760, '雨停之后，最后一封信该寄往哪里？完结卷。', 336, '¥748'),
    ],
  },
  {
    name: '終着駅の猫',
    nameZh: '终点站的猫',
    aliases: ['The Cat at the Terminal Station'],
    intro:
      '地方支线的终点站，住着一只谁也说不清来历的三花猫。站长说它会把迷路的人带回该去的地方。\n六个在终点站下车的人，六段小小的旅程。',
    serialStatus: 'serialising',
    staff: [
      ['tokiwa', 'author'],
      ['yuzuki', 'illustrator'],
    ],
    producers: [
      ['tomoshibi', 'publisher'],
      ['tomoshibiBunko', 'label'],
    ],
    volumes: [
      vol(1, '末班车之后', '終電のあとで', 450, '末班车开走以后，三花猫在月台上等着最后一位乘客。', 256, '¥42.00'),
      vol(2, '站前的面包店', '駅前のパン屋', 12, '站前面包店的招牌要摘下来了，猫却每天都去门口坐着。', 264, '¥42.00'),
    ],
  },
  {
    name: '迷宮食堂のまかない帳',
    nameZh: '迷宫食堂的员工餐手账',
    aliases: ['Dungeon Diner Notebook'],
    intro:
      '迷宫第十层有一家只对冒险者开放的食堂。被勇者队伍开除的厨师阿尔特在这里找到了新工作——用魔物食材做出让人落泪的员工餐。',
    serialStatus: 'serialising',
    staff: [
      ['hazuki', 'author'],
      ['kurose', 'illustrator'],
    ],
    producers: [
      ['seiran', 'publisher'],
      ['seiranNovels', 'label'],
    ],
    volumes: [
      vol(1, '史莱姆冻与开张日', 'スライムゼリーと開店日', 700, '开张第一天，来的客人是一条饿坏了的龙。', 320, '¥748'),
      vol(2, '火山蜥蜴的咖喱', '火トカゲのカレー', 540, '辣到能喷火的咖喱，成了冒险者之间的挑战项目。', 320, '¥748'),
      vol(3, '深层的便当', '深層のお弁当', 360, '给要去第五十层的勇者队伍做便当——其中有开除他的那一位。', 328, '¥770'),
      vol(4, '魔王城的宴会', '魔王城の宴会', 170, '魔王要办生日宴，指名阿尔特掌勺。', 336, '¥770'),
      vol(5, '食堂休业日', '食堂の定休日', 5, '难得的休业日，食堂的大家各自出门了。', 312, '¥770'),
      vol(1, '员工餐食谱集', 'まかないレシピ集', 90, '书中出现的料理，附阿尔特的手写食谱。', 192, '¥990', 'extra'),
    ],
  },
  {
    name: '放課後の天文部は星を数えない',
    nameZh: '放学后的天文部不数星星',
    aliases: ['The Astronomy Club Does Not Count Stars'],
    intro: '只有三名部员的天文部，活动内容是“在屋顶上发呆”。直到某天，望远镜里出现了一颗不该存在的星星。',
    serialStatus: 'finished',
    staff: [
      ['minase', 'author'],
      ['nanase', 'illustrator'],
    ],
    producers: [
      ['seisou', 'publisher'],
      ['seisouBunko', 'label'],
    ],
    volumes: [
      vol(1, '第零颗星', '零番目の星', 1900, '屋顶上的三个人，和一颗多出来的星。', 280, '¥682'),
      vol(2, '流星雨预报', '流星群予報', 1650, '为了看流星雨，天文部第一次申请了夜间活动。', 288, '¥682'),
      vol(3, '星星数完以后', '星を数え終えたら', 1400, '毕业前的最后一次观测。完结卷。', 304, '¥704'),
    ],
  },
  {
    name: '銀の鍵と七つの扉',
    nameZh: '银钥匙与七扇门',
    aliases: ['The Silver Key and the Seven Doors'],
    intro: '继承了祖父古董店的少年，在柜台下发现一把银钥匙。店里七扇打不开的门，各自通往一个已经消失的国度。',
    serialStatus: 'paused',
    staff: [
      ['hazuki', 'author'],
      ['shimotsuki', 'illustrator'],
    ],
    producers: [
      ['seiran', 'publisher'],
      ['seiranNovels', 'label'],
    ],
    volumes: [
      vol(1, '第一扇门·沙之国', '一の扉・砂の国', 1200, '第一扇门后，是一座被沙埋住的王都。', 352, '¥792'),
      vol(2, '第二扇门·水之国', '二の扉・水の国', 980, '沉在湖底的城市，等着一位迟到了百年的客人。', 344, '¥792'),
    ],
  },
  {
    name: '僕らの文化祭は終わらない',
    nameZh: '我们的文化祭不会结束',
    aliases: [],
    intro: '文化祭第二天，整个学校被困在了同一天里。学生会长宣布：在找出原因之前，文化祭继续。',
    serialStatus: 'abandoned',
    staff: [
      ['amane', 'author'],
      ['kurose', 'illustrator'],
    ],
    producers: [
      ['tomoshibi', 'publisher'],
      ['tomoshibiBunko', 'label'],
    ],
    volumes: [vol(1, '第二天，又一次', '二日目、もう一度', 2100, '第一百次文化祭第二天的早晨。', 296, '¥39.80')],
  },
  {
    name: '灯台守と人魚の約束',
    nameZh: '灯塔守与人鱼的约定',
    aliases: ['The Lighthouse Keeper and the Mermaid'],
    intro: '孤岛灯塔的新任守塔人，在交接日志的最后一页读到一行字：“每逢满月，请替我赴约。”',
    serialStatus: 'serialising',
    staff: [
      ['kiriya', 'author'],
      ['yuzuki', 'illustrator'],
    ],
    producers: [
      ['tomoshibi', 'publisher'],
      ['tomoshibiBunko', 'label'],
    ],
    volumes: [
      vol(1, '满月的交接日志', '満月の引継ぎ日誌', 240, '第一个满月夜，海面上响起了歌声。', 272, '¥45.00'),
      vol(2, '退潮的邮筒', '引き潮のポスト', -40, '只在退潮时露出的邮筒里，放着一封写给灯塔的信。', 280, '¥45.00'),
    ],
  },
];

/** Writes the demo light novels through the light-novel writer. Safe to run again: it updates in place. */
export async function seedDemoLightnovels(db: Db, now: Date): Promise<{ series: number; volumes: number }> {
  const personIds = new Map<PersonKey, number>();
  const borrowed = {
    yuzuki: cataloguePersons.yuzuki,
    shimotsuki: cataloguePersons.shimotsuki,
    minase: cataloguePersons.minase,
  } satisfies Record<string, PersonInput>;
  for (const [key, person] of Object.entries({ ...borrowed, ...people }) as [PersonKey, PersonInput][]) {
    personIds.set(key, await upsertPerson(db, person, now));
  }
  const houseIds = new Map<HouseKey, number>();
  for (const [key, house] of Object.entries(houses) as [HouseKey, ProducerInput][]) {
    houseIds.set(key, await upsertProducer(db, house, now));
  }
  const id = <K>(ids: Map<K, number>, key: K): number => {
    const found = ids.get(key);
    if (found === undefined) throw new Error(`demo light novels: unknown key ${String(key)}`);
    return found;
  };
  const today = siteToday(now);
  let volumes = 0;
  for (const series of demoSeries) {
    const lightnovelId = await saveLightnovel(
      db,
      {
        name: series.name,
        nameZh: series.nameZh,
        aliases: series.aliases,
        intro: series.intro,
        cover: '',
        serialStatus: series.serialStatus,
        status: 'published',
        staff: series.staff.map(([key, role]) => ({ personId: id(personIds, key), role })),
        producers: series.producers.map(([key, role]) => ({ producerId: id(houseIds, key), role })),
      },
      now,
    );
    for (const [i, v] of series.volumes.entries()) {
      await saveVolume(
        db,
        {
          lightnovelId,
          kind: v.kind ?? 'main',
          number: v.number,
          title: v.title,
          titleZh: v.titleZh,
          intro: v.intro,
          cover: '',
          // ISBN-like, fixed per series and volume (978-4-…), never a real book's.
          isbn: `978-4-${String(7000 + lightnovelId).padStart(4, '0')}-${String(1000 + i * 37).slice(0, 4)}-${(lightnovelId + i) % 10}`,
          releaseDate: addDays(today, -v.daysAgo),
          pages: v.pages,
          price: v.price,
        },
        now,
      );
      volumes++;
    }
  }
  return { series: demoSeries.length, volumes };
}
