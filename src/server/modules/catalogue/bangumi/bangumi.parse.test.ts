import { describe, expect, it } from 'vitest';
import {
  type BangumiSubject,
  infoboxText,
  infoboxValues,
  isGalgameSubject,
  isVisualNovelGenre,
  mapCharacter,
  mapCharacterRole,
  mapPerson,
  mapPlatform,
  mapPosition,
  mapProducer,
  mapRelation,
  mapSubject,
  parseDate,
  parseInfobox,
  parseLine,
  platformsOf,
  producerKind,
  releaseDateOf,
  splitNames,
  tagsOf,
} from './bangumi.parse.ts';

const wiki = (...lines: string[]) => ['{{Infobox Game', ...lines, '}}'].join('\r\n');

function subject(overrides: Partial<BangumiSubject> = {}): BangumiSubject {
  return {
    id: 1,
    type: 4,
    name: 'テストゲーム',
    name_cn: '测试游戏',
    infobox: wiki('|游戏类型= ADV'),
    platform: 4001,
    summary: '',
    nsfw: false,
    date: '',
    tags: [],
    ...overrides,
  };
}

describe('parseInfobox', () => {
  it('reads the type, scalars, lists and keyed items, with either line ending', () => {
    const box = parseInfobox(
      '{{Infobox Game\r\n|中文名= 星屑回忆录\r\n|别名={\r\n[Hoshikuzu]\r\n[英文名| Stardust ]\r\n}\r\n|平台={\n[PC]\n\n[PS Vita]\n}\n|售价=\n}}',
    );
    expect(box.type).toBe('Game');
    expect(box.fields.get('中文名')).toBe('星屑回忆录');
    expect(box.fields.get('别名')).toEqual([
      { key: '', value: 'Hoshikuzu' },
      { key: '英文名', value: 'Stardust' },
    ]);
    expect(infoboxValues(box, '平台')).toEqual(['PC', 'PS Vita']);
    expect(box.fields.get('售价')).toBe('');
    expect(infoboxValues(box, '售价')).toEqual([]);
  });

  it('follows the wiki syntax spec for brackets and bars inside items', () => {
    const box = parseInfobox('{{InfoBox\n|A ={\n[a| a sd ]]\n[b| d| b ]\n[x[y]\n}\n| d = E\n}}');
    expect(box.fields.get('A')).toEqual([
      { key: 'a', value: 'a sd ]' },
      { key: 'b', value: 'd| b' },
      { key: '', value: 'x[y' },
    ]);
    expect(box.fields.get('d')).toBe('E');
  });

  it('is lenient: no wiki, an unclosed list, empty lists and repeated fields', () => {
    expect(parseInfobox('').fields.size).toBe(0);
    expect(parseInfobox('just a sentence').fields.size).toBe(0);
    expect(infoboxValues(parseInfobox('{{Infobox\n|平台={\n[PC]\n}}'), '平台')).toEqual(['PC']);
    expect(parseInfobox('{{Infobox\n|别名={}\n}}').fields.get('别名')).toEqual([]);
    const repeated = parseInfobox(wiki('|开发= A社', '|开发={', '[B社]', '}'));
    expect(infoboxValues(repeated, '开发')).toEqual(['A社', 'B社']);
  });

  it('reads the first key present, skipping empty values', () => {
    const box = parseInfobox(wiki('|发售日= 2020-01-01', '|别名={', '[第二中文名|]', '[昵称|小星]', '}'));
    expect(infoboxText(box, '发行日期', '发售日')).toBe('2020-01-01');
    expect(infoboxValues(box, '别名')).toEqual(['小星']);
    expect(infoboxText(box, 'missing')).toBe('');
  });
});

describe('galgame selection', () => {
  it('recognises visual-novel genres, and ADV/AVG only as whole words', () => {
    for (const genre of [
      '恋爱ADV',
      'ADV',
      'AVG',
      '视觉小说',
      'Galgame',
      '美少女游戏',
      '文字冒险',
      'ノベル',
      'SLG/AVG',
      '乙女向AVG',
    ]) {
      expect(isVisualNovelGenre(genre), genre).toBe(true);
    }
    for (const genre of ['ACT·AVG', 'RPG', 'ACT', '动作冒险', 'ARPG', 'STG', 'ADVANCED']) {
      expect(isVisualNovelGenre(genre), genre).toBe(false);
    }
  });

  it('takes games of the game, expansion and unset platform codes only', () => {
    expect(isGalgameSubject(subject())).toBe(true);
    expect(isGalgameSubject(subject({ platform: 4003 }))).toBe(true);
    expect(isGalgameSubject(subject({ platform: 0 }))).toBe(true);
    for (const platform of [4002, 4004, 4005]) expect(isGalgameSubject(subject({ platform }))).toBe(false);
    expect(isGalgameSubject(subject({ type: 2, platform: 1 }))).toBe(false);
  });

  it('lets a filled 游戏类型 decide; tags with ≥ 3 votes decide only when it is empty', () => {
    const vnTag = [{ name: 'galgame', count: 5 }];
    expect(isGalgameSubject(subject({ infobox: wiki('|游戏类型= RPG'), tags: vnTag }))).toBe(false);
    expect(isGalgameSubject(subject({ infobox: wiki('|中文名= x'), tags: vnTag }))).toBe(true);
    expect(isGalgameSubject(subject({ infobox: wiki('|游戏类型='), tags: [{ name: '视觉小说', count: 3 }] }))).toBe(
      true,
    );
    expect(isGalgameSubject(subject({ infobox: wiki('|中文名= x'), tags: [{ name: 'galgame', count: 2 }] }))).toBe(
      false,
    );
    expect(isGalgameSubject(subject({ infobox: '', tags: [] }))).toBe(false);
  });
});

describe('field mappings', () => {
  it('maps platform names onto PLATFORMS', () => {
    const cases: [string, string][] = [
      ['PC', 'windows'],
      ['Windows', 'windows'],
      ['Windows 10', 'windows'],
      ['Mac OS', 'mac'],
      ['Linux', 'linux'],
      ['PS4', 'ps4'],
      ['PlayStation 5', 'ps5'],
      ['PS Vita', 'psv'],
      ['PSV', 'psv'],
      ['Nintendo Switch', 'switch'],
      ['NS', 'switch'],
      ['Android', 'android'],
      ['iOS', 'ios'],
      ['iPhone', 'ios'],
      ['Web', 'web'],
      ['HTML5', 'web'],
      ['PC-98', 'other'],
      ['PSP', 'other'],
      ['Xbox One', 'other'],
    ];
    for (const [name, platform] of cases) expect(mapPlatform(name), name).toBe(platform);
    expect(platformsOf(parseInfobox(wiki('|平台={', '[PC]', '[Windows]', '[PS4/PS5]', '[FM TOWNS]', '}')))).toEqual([
      'windows',
      'ps4',
      'ps5',
      'other',
    ]);
  });

  it('parses dates and rejects impossible or partial ones', () => {
    expect(parseDate('2019-04-26')).toBe('2019-04-26');
    expect(parseDate('2019/4/6')).toBe('2019-04-06');
    expect(parseDate('2020年3月27日（初回限定版）')).toBe('2020-03-27');
    for (const bad of ['', 'TBA', '2019-02-30', '2019年', '2019-04', '0000-00-00'])
      expect(parseDate(bad), bad).toBeNull();
  });

  it('takes the release date from `date`, else the earliest 发行日期, else TBD', () => {
    const box = parseInfobox(wiki('|发行日期={', '[PS4|2021-03-01]', '[PC|2020-12-24]', '}'));
    expect(releaseDateOf(subject({ date: '2019-04-26' }), box)).toBe('2019-04-26');
    expect(releaseDateOf(subject({ date: '' }), box)).toBe('2020-12-24');
    expect(releaseDateOf(subject({ date: '0000-00-00' }), parseInfobox(wiki('|发行日期= 未定')))).toBeNull();
  });

  it('keeps tags with at least 3 votes, most voted first, at most 15', () => {
    const tags = Array.from({ length: 20 }, (_, i) => ({ name: `tag${i}`, count: i + 1 }));
    const picked = tagsOf(subject({ tags: [...tags, { name: ' tag19 ', count: 4 }, { name: '', count: 9 }] }));
    expect(picked).toHaveLength(15);
    expect(picked[0]).toEqual({ name: 'tag19', votes: 20 });
    expect(picked.at(-1)).toEqual({ name: 'tag5', votes: 6 });
    expect(tagsOf(subject({ tags: [{ name: 'PC', count: 2 }] }))).toEqual([]);
  });

  it('maps staff positions, character types, relation codes and person types', () => {
    expect(mapPosition(1001)).toEqual({ kind: 'producer', role: 'developer' });
    expect(mapPosition(1002)).toEqual({ kind: 'producer', role: 'publisher' });
    expect(mapPosition(1004)).toEqual({ kind: 'staff', role: 'scenario', note: '' });
    expect(mapPosition(1013)).toEqual({ kind: 'staff', role: 'art', note: '' });
    expect(mapPosition(1024)).toEqual({ kind: 'staff', role: 'art', note: 'SD原画' });
    expect(mapPosition(1008)).toEqual({ kind: 'staff', role: 'character_design', note: '' });
    expect(mapPosition(1006)).toEqual({ kind: 'staff', role: 'music', note: '' });
    expect(mapPosition(1016)).toEqual({ kind: 'staff', role: 'director', note: '' });
    expect(mapPosition(1021)).toEqual({ kind: 'staff', role: 'other', note: '程序' });
    expect(mapPosition(67)).toEqual({ kind: 'staff', role: 'other', note: '' });
    expect([1, 2, 3, 4].map(mapCharacterRole)).toEqual(['main', 'supporting', 'appears', 'appears']);
    expect([4003, 4002, 4006, 4015, 4008, 4011, 4099, 1].map(mapRelation)).toEqual([
      'sequel',
      'prequel',
      'fandisc',
      'fandisc',
      'same_series',
      'other',
      'other',
      'other',
    ]);
    expect([1, 2, 3].map(producerKind)).toEqual(['individual', 'company', 'amateur']);
  });

  it('splits company lists in infobox values', () => {
    expect(splitNames(['Studio Kumo、Hoshizora Works', 'A社 / B社', 'Studio Kumo'])).toEqual([
      'Studio Kumo',
      'Hoshizora Works',
      'A社',
      'B社',
    ]);
  });
});

describe('entries', () => {
  it('maps a subject to a game, its tags and infobox producers', () => {
    const mapped = mapSubject(
      subject({
        id: 42,
        name: '星屑のメモリア',
        name_cn: '星屑回忆录',
        summary: '第一行\r\n第二行\r\n',
        nsfw: true,
        date: '2019-04-26',
        tags: [{ name: '纯爱', count: 12 }],
        infobox: wiki(
          '|中文名= 星屑回忆录',
          '|别名={',
          '[Hoshikuzu Memoria]',
          '[星屑のメモリア]',
          '[英文名|Stardust Memoria]',
          '}',
          '|平台={',
          '[PC]',
          '[PS Vita]',
          '}',
          '|开发= 月影ソフト',
          '|发行= 星海、夜桜',
        ),
      }),
    );
    expect(mapped.galgame).toEqual({
      bangumiId: 42,
      title: '星屑のメモリア',
      titleZh: '星屑回忆录',
      aliases: ['Hoshikuzu Memoria', 'Stardust Memoria'],
      intro: '第一行\n第二行',
      releaseDate: '2019-04-26',
      nsfw: true,
      platforms: ['windows', 'psv'],
    });
    expect(mapped.tags).toEqual([{ name: '纯爱', votes: 12 }]);
    expect(mapped.infoboxProducers).toEqual({ developer: ['月影ソフト'], publisher: ['星海', '夜桜'] });
  });

  it('falls back to the infobox 中文名 and to 开发者 of doujin games', () => {
    const mapped = mapSubject(
      subject({ name_cn: '', infobox: wiki('|中文名= 中文标题', '|开发者={', '[同人社团]', '}') }),
    );
    expect(mapped.galgame.titleZh).toBe('中文标题');
    expect(mapped.galgame.aliases).toEqual([]);
    expect(mapped.infoboxProducers.developer).toEqual(['同人社团']);
  });

  it('maps persons, producers and characters from their infobox', () => {
    const infobox = [
      '{{Infobox Crt',
      '|简体中文名= 朝雾日和',
      '|别名={',
      '[第二中文名|]',
      '[英文名|Hiyori]',
      '}',
      '|性别= 女',
      '|生日= 3月21日',
      '|website= https://example.invalid/',
      '}}',
    ].join('\n');
    const row = { id: 7, name: '朝霧 ひより', type: 2, infobox, summary: ' 部长。 ' };
    const common = {
      bangumiId: 7,
      name: '朝霧 ひより',
      nameZh: '朝雾日和',
      aliases: ['Hiyori'],
      description: '部长。',
    };
    expect(mapCharacter(row)).toEqual({ ...common, gender: '女', birthday: '3月21日' });
    expect(mapPerson(row)).toEqual({ ...common, gender: '女', birthday: '3月21日' });
    expect(mapProducer(row)).toEqual({ ...common, kind: 'company', website: 'https://example.invalid/' });
  });
});

describe('parseLine', () => {
  it('returns rows, and null for lines that are not JSON or lack their ids', () => {
    expect(parseLine['subject-persons.jsonlines']('{"person_id":1,"subject_id":2,"position":1001}')).toEqual({
      person_id: 1,
      subject_id: 2,
      position: 1001,
    });
    expect(parseLine['subject-persons.jsonlines']('{"person_id":null,"subject_id":2,"position":1001}')).toBeNull();
    expect(parseLine['subject.jsonlines']('{"id":1,"type":4,"name":"x')).toBeNull();
    expect(parseLine['subject.jsonlines']('[]')).toBeNull();
  });

  it('gives odd optional fields their empty value instead of dropping the row', () => {
    const row = parseLine['subject.jsonlines']('{"id":5,"type":4,"name":"x","name_cn":null,"tags":"oops","nsfw":0}');
    expect(row).toMatchObject({ id: 5, name_cn: '', tags: [], nsfw: false, platform: 0, infobox: '' });
  });
});
