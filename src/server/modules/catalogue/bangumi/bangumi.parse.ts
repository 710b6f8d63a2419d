import { z } from 'zod';
import type { Platform, PRODUCER_ROLES, RELATIONS, STAFF_ROLES } from '../../../../shared/catalogue.ts';
import type { CharacterInput, GalgameInput, PersonInput, ProducerInput } from '../catalogue.writer.ts';
import { isSiteDate } from '../../../../shared/site-day.ts';
import { type Infobox, infoboxText, infoboxValues, parseInfobox, splitNames } from './bangumi.infobox.ts';

export {
  type Infobox,
  type InfoboxItem,
  type InfoboxValue,
  infoboxText,
  infoboxValues,
  parseInfobox,
  splitNames,
} from './bangumi.infobox.ts';

// Pure mapping from the Bangumi Archive dump (https://github.com/bangumi/Archive) to catalogue inputs.
// Code tables follow bangumi/common (subject_staffs.yml, subject_relations.yml, subject_platforms.yml);
// the wiki syntax follows bangumi/wiki-syntax-spec.

export type ProducerRole = (typeof PRODUCER_ROLES)[number];
export type StaffRole = (typeof STAFF_ROLES)[number];
export type Relation = (typeof RELATIONS)[number];
export type CharacterRole = 'main' | 'supporting' | 'appears';
/** An entry from the dump: always matched by its Bangumi id. */
export type WithBangumiId<T> = T & { bangumiId: number };

/** The dump's files, in the order the import reads them. */
export const DUMP_FILES = [
  'subject.jsonlines',
  'subject-persons.jsonlines',
  'subject-characters.jsonlines',
  'person-characters.jsonlines',
  'subject-relations.jsonlines',
  'person.jsonlines',
  'character.jsonlines',
] as const;
export type DumpFile = (typeof DUMP_FILES)[number];

// ---------------------------------------------------------------------------------------------------
// Rows. Ids are required (a line without them is malformed); other fields fall back to empty values so
// one odd field does not drop a whole entry.

const id = z.number().int().positive();
const text = z.string().catch('');

const subjectSchema = z.object({
  id,
  type: z.number().int(),
  name: z.string(),
  name_cn: text,
  infobox: text,
  platform: z.number().int().catch(0),
  summary: text,
  nsfw: z.boolean().catch(false),
  date: text,
  tags: z.array(z.object({ name: z.string(), count: z.number() })).catch([]),
});
const personSchema = z.object({ id, name: z.string(), type: z.number().int().catch(1), infobox: text, summary: text });
const characterSchema = z.object({ id, name: z.string(), infobox: text, summary: text });
const subjectPersonSchema = z.object({ person_id: id, subject_id: id, position: z.number().int() });
const subjectCharacterSchema = z.object({ character_id: id, subject_id: id, type: z.number().int().catch(0) });
const personCharacterSchema = z.object({ person_id: id, subject_id: id, character_id: id });
const subjectRelationSchema = z.object({ subject_id: id, related_subject_id: id, relation_type: z.number().int() });

export type BangumiSubject = z.infer<typeof subjectSchema>;
export type BangumiPerson = z.infer<typeof personSchema>;
export type BangumiCharacter = z.infer<typeof characterSchema>;
export type BangumiSubjectPerson = z.infer<typeof subjectPersonSchema>;
export type BangumiSubjectCharacter = z.infer<typeof subjectCharacterSchema>;
export type BangumiPersonCharacter = z.infer<typeof personCharacterSchema>;
export type BangumiSubjectRelation = z.infer<typeof subjectRelationSchema>;

function lineParser<T>(schema: z.ZodType<T>): (line: string) => T | null {
  return (line) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return null;
    }
    const result = schema.safeParse(value);
    return result.success ? result.data : null;
  };
}

/** Each returns the row, or null when the line is not valid JSON or lacks its ids (a malformed line). */
export const parseLine = {
  'subject.jsonlines': lineParser(subjectSchema),
  'person.jsonlines': lineParser(personSchema),
  'character.jsonlines': lineParser(characterSchema),
  'subject-persons.jsonlines': lineParser(subjectPersonSchema),
  'subject-characters.jsonlines': lineParser(subjectCharacterSchema),
  'person-characters.jsonlines': lineParser(personCharacterSchema),
  'subject-relations.jsonlines': lineParser(subjectRelationSchema),
} satisfies Record<DumpFile, (line: string) => unknown>;

// ---------------------------------------------------------------------------------------------------
// Which game subjects are galgame.

/**
 * Subject `platform` of a game (bangumi/common subject_platforms.yml): 0 unset, 4001 游戏, 4002 软件,
 * 4003 扩展包, 4004 试玩版, 4005 桌游. Games and their expansions (fandiscs) qualify; software, demos
 * and tabletop games do not.
 */
export const GALGAME_SUBJECT_PLATFORMS: ReadonlySet<number> = new Set([0, 4001, 4003]);

// Words that name a visual novel wherever they appear in a genre ("恋爱ADV", "美少女游戏", "ノベルゲーム").
const VN_WORDS =
  /恋爱|恋愛|戀愛|乙女|视觉小说|視覺小說|ビジュアルノベル|visual\s*novel|kinetic\s*novel|gal\s*game|gal游戏|美少女|文字冒险|文字冒險|ノベル|电子小说|電子小説|エロゲ/i;
// Genre abbreviations that name one only as a whole word, so "ACT·AVG" (action adventure) does not count.
const VN_TOKENS: ReadonlySet<string> = new Set(['adv', 'avg', 'nvl', 'gal', 'vn', 'アドベンチャー']);

export function isVisualNovelGenre(genre: string): boolean {
  if (VN_WORDS.test(genre)) return true;
  return genre.split(/[\s/、,，;；|]+/).some((token) => VN_TOKENS.has(token.toLowerCase()));
}

/** A tag needs this many votes to count (for galgame detection and to be imported). */
export const MIN_TAG_VOTES = 3;
export const MAX_TAGS = 15;

/**
 * The selection rule: a game subject (type 4) of a qualifying platform code whose infobox 游戏类型 names
 * a visual novel (恋爱/视觉小说/galgame/美少女/文字冒险/ノベル…, or the whole word ADV/AVG/NVL). When
 * 游戏类型 is empty, the community tags decide instead: one with ≥ 3 votes that names a visual novel.
 */
export function isGalgameSubject(subject: BangumiSubject, box: Infobox = parseInfobox(subject.infobox)): boolean {
  if (subject.type !== 4 || !GALGAME_SUBJECT_PLATFORMS.has(subject.platform)) return false;
  const genres = infoboxValues(box, '游戏类型');
  if (genres.length > 0) return genres.some(isVisualNovelGenre);
  return subject.tags.some((t) => t.count >= MIN_TAG_VOTES && isVisualNovelGenre(t.name));
}

// ---------------------------------------------------------------------------------------------------
// Field mappings.

const PLATFORM_PATTERNS: [RegExp, Platform][] = [
  [/^(pc|windows.*|win(\d+|xp|vista|me)?)$/, 'windows'],
  [/^(mac|macos.*|osx|macintosh)$/, 'mac'],
  [/^linux$/, 'linux'],
  [/^(ps4|playstation4)$/, 'ps4'],
  [/^(ps5|playstation5)$/, 'ps5'],
  [/^(psv|psvita|vita|playstationvita)$/, 'psv'],
  [/^(ns|switch|nintendoswitch)$/, 'switch'],
  [/^android$/, 'android'],
  [/^(ios|iphone|ipad|iphoneos)$/, 'ios'],
  [/^(web|html5|browser|网页|網頁|ブラウザ)$/, 'web'],
];

/** An infobox 平台 entry ("PC", "PS Vita", "Nintendo Switch"…) as one of PLATFORMS; unknown → other. */
export function mapPlatform(name: string): Platform {
  const compact = name.toLowerCase().replace(/[\s\-_.]/g, '');
  return PLATFORM_PATTERNS.find(([pattern]) => pattern.test(compact))?.[1] ?? 'other';
}

export function platformsOf(box: Infobox): Platform[] {
  return [
    ...new Set(
      infoboxValues(box, '平台')
        .flatMap((v) => splitNames([v]))
        .map(mapPlatform),
    ),
  ];
}

/** "2019-04-26", "2019/4/26" or "2019年4月26日" (anywhere in the text) → "2019-04-26"; else null. */
export function parseDate(value: string): string | null {
  const match = /(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})/.exec(value);
  if (!match) return null;
  const [year, month, day] = [match[1] ?? '', match[2] ?? '', match[3] ?? ''];
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return Number(year) >= 1900 && Number(year) <= 2100 && isSiteDate(date) ? date : null;
}

/** The subject's `date`, else the earliest valid 发行日期 (发售日 on doujin games); null = TBD. */
export function releaseDateOf(subject: BangumiSubject, box: Infobox): string | null {
  const fromDate = parseDate(subject.date);
  if (fromDate) return fromDate;
  const dates = infoboxValues(box, '发行日期', '发售日')
    .map(parseDate)
    .filter((d): d is string => d !== null);
  return dates.sort()[0] ?? null;
}

/** Tags with at least 3 votes, most voted first, at most 15. */
export function tagsOf(subject: BangumiSubject): { name: string; votes: number }[] {
  const seen = new Set<string>();
  return subject.tags
    .map((t) => ({ name: t.name.trim(), votes: Math.trunc(t.count) }))
    .filter((t) => t.name !== '' && t.votes >= MIN_TAG_VOTES)
    .sort((a, b) => b.votes - a.votes)
    .filter((t) => !seen.has(t.name) && seen.add(t.name))
    .slice(0, MAX_TAGS);
}

export type PositionMapping =
  { kind: 'producer'; role: ProducerRole } | { kind: 'staff'; role: StaffRole; note: string };

/**
 * Game staff positions (subject-persons `position`, bangumi/common subject_staffs.yml, game table).
 * 开发/发行 make producers; the rest are staff, with the Bangumi title as note where the role alone
 * loses it. Bangumi has no voice position for games: voices come from person-characters instead.
 */
export const GAME_POSITIONS: Readonly<Record<number, PositionMapping>> = {
  1001: { kind: 'producer', role: 'developer' }, // 开发
  1002: { kind: 'producer', role: 'publisher' }, // 发行
  1016: { kind: 'staff', role: 'director', note: '' }, // 导演
  1003: { kind: 'staff', role: 'director', note: '游戏设计师' },
  1004: { kind: 'staff', role: 'scenario', note: '' }, // 剧本
  1027: { kind: 'staff', role: 'scenario', note: '系列构成' },
  1013: { kind: 'staff', role: 'art', note: '' }, // 原画
  1005: { kind: 'staff', role: 'art', note: '美工' },
  1024: { kind: 'staff', role: 'art', note: 'SD原画' },
  1025: { kind: 'staff', role: 'art', note: '背景' },
  1031: { kind: 'staff', role: 'art', note: '作画监督' },
  1023: { kind: 'staff', role: 'art', note: 'CG 监修' },
  1033: { kind: 'staff', role: 'art', note: '封绘' },
  1008: { kind: 'staff', role: 'character_design', note: '' }, // 人物设定
  1006: { kind: 'staff', role: 'music', note: '' }, // 音乐
  1030: { kind: 'staff', role: 'music', note: '音响监督' },
  1009: { kind: 'staff', role: 'music', note: '主题歌作曲' },
  1010: { kind: 'staff', role: 'music', note: '主题歌作词' },
  1011: { kind: 'staff', role: 'music', note: '主题歌演出' },
  1012: { kind: 'staff', role: 'music', note: '插入歌演出' },
  1032: { kind: 'staff', role: 'other', note: '制作人' },
  1018: { kind: 'staff', role: 'other', note: '制作总指挥' },
  1026: { kind: 'staff', role: 'other', note: '监修' },
  1015: { kind: 'staff', role: 'other', note: '原作' },
  1028: { kind: 'staff', role: 'other', note: '企画' },
  1007: { kind: 'staff', role: 'other', note: '关卡设计' },
  1029: { kind: 'staff', role: 'other', note: '机械设定' },
  1021: { kind: 'staff', role: 'other', note: '程序' },
  1014: { kind: 'staff', role: 'other', note: '动画制作' },
  1017: { kind: 'staff', role: 'other', note: '动画监督' },
  1020: { kind: 'staff', role: 'other', note: '动画剧本' },
  1019: { kind: 'staff', role: 'other', note: 'QC' },
  1022: { kind: 'staff', role: 'other', note: '协力' },
};

/** Unknown positions (e.g. left over from a subject whose type changed) are staff "other". */
export const mapPosition = (position: number): PositionMapping =>
  GAME_POSITIONS[position] ?? { kind: 'staff', role: 'other', note: '' };

/** subject-characters `type`: 1 主角, 2 配角, 3 客串 (and anything else) → appears. */
export const mapCharacterRole = (type: number): CharacterRole =>
  type === 1 ? 'main' : type === 2 ? 'supporting' : 'appears';

/**
 * Game relation codes (bangumi/common subject_relations.yml, GAME_RELATIONS): "B is A's …". Fandiscs
 * are filed on Bangumi as 外传 or 扩展包; settings and versions of one story count as the same series.
 */
export const GAME_RELATIONS: Readonly<Record<number, Relation>> = {
  4002: 'prequel', // 前传
  4003: 'sequel', // 续集
  4006: 'fandisc', // 外传
  4015: 'fandisc', // 扩展包 (DLC)
  4012: 'same_series', // 主线故事 (the game a fandisc belongs to)
  4007: 'same_series', // 角色出演
  4008: 'same_series', // 相同世界观
  4009: 'same_series', // 不同世界观
  4010: 'same_series', // 不同演绎
  4011: 'other', // 不同版本
  4013: 'other', // 主版本
  4014: 'other', // 联动
  4016: 'other', // 合集
  4017: 'other', // 收录作品
  4099: 'other', // 其他
};
export const mapRelation = (code: number): Relation => GAME_RELATIONS[code] ?? 'other';

/** Person `type`: 1 individual, 2 company, 3 group (circles and units). */
export const producerKind = (personType: number): NonNullable<ProducerInput['kind']> =>
  personType === 2 ? 'company' : personType === 3 ? 'amateur' : 'individual';

// ---------------------------------------------------------------------------------------------------
// Entries.

const cleanText = (value: string) => value.replace(/\r\n?/g, '\n').trim();
const unique = (values: string[], except: string[]) =>
  [...new Set(values)].filter((v) => v !== '' && !except.includes(v));

/** What a game subject gives without database ids: the game, its tags, and producers named in the infobox. */
export interface MappedSubject {
  galgame: WithBangumiId<GalgameInput>;
  tags: { name: string; votes: number }[];
  infoboxProducers: Record<ProducerRole, string[]>;
}

/**
 * A game subject → the game. name_cn is the Chinese title; the infobox 中文名 and 别名 become aliases
 * (without repeating either title). Covers are not in the dump and are left to the site.
 */
export function mapSubject(subject: BangumiSubject, box: Infobox = parseInfobox(subject.infobox)): MappedSubject {
  const title = subject.name.trim() || subject.name_cn.trim();
  const titleZh = subject.name_cn.trim() || infoboxText(box, '中文名');
  return {
    galgame: {
      bangumiId: subject.id,
      title,
      titleZh,
      aliases: unique([...infoboxValues(box, '中文名'), ...infoboxValues(box, '别名')], [title, titleZh]),
      intro: cleanText(subject.summary),
      releaseDate: releaseDateOf(subject, box),
      nsfw: subject.nsfw,
      platforms: platformsOf(box),
    },
    tags: tagsOf(subject),
    infoboxProducers: {
      developer: splitNames(infoboxValues(box, '开发', '开发者')),
      publisher: splitNames(infoboxValues(box, '发行')),
    },
  };
}

function entityFields(row: { id: number; name: string; infobox: string; summary: string }) {
  const box = parseInfobox(row.infobox);
  const name = row.name.trim();
  const nameZh = infoboxText(box, '简体中文名');
  return {
    box,
    fields: {
      bangumiId: row.id,
      name,
      nameZh,
      aliases: unique(infoboxValues(box, '别名'), [name, nameZh]),
      description: cleanText(row.summary),
    },
  };
}

export function mapPerson(row: BangumiPerson): WithBangumiId<PersonInput> {
  const { box, fields } = entityFields(row);
  return { ...fields, gender: infoboxText(box, '性别'), birthday: infoboxText(box, '生日') };
}

export function mapCharacter(row: BangumiCharacter): WithBangumiId<CharacterInput> {
  const { box, fields } = entityFields(row);
  return { ...fields, gender: infoboxText(box, '性别'), birthday: infoboxText(box, '生日') };
}

/** A person linked as 开发/发行 → a producer; its kind follows the person type. */
export function mapProducer(row: BangumiPerson): WithBangumiId<ProducerInput> {
  const { box, fields } = entityFields(row);
  const website = infoboxValues(box, 'website', '官网', '官方网站', '网站').find((v) => /^https?:\/\//i.test(v));
  return { ...fields, kind: producerKind(row.type), website: website ?? '' };
}
