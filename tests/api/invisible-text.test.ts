import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostDetail } from '../../src/shared/community/community.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { call, data, expectFailure, makeAccount, type Account, type Answer } from '../support/accounts.ts';
import { createTestApp, insertSection, type TestApp } from '../support/test-app.ts';

/**
 * Text that shows nothing (blank braille, lone combining marks, one zero-width character, fillers) is
 * refused by every text field that stores it, with the field's name in the message, and nothing is
 * stored. Titles, topics, comments and chat messages are attacked in community-attacks and chat-socket.
 */

const INVISIBLE: [string, string][] = [
  ['blank braille', '\u2800\u2800\u2800'],
  ['combining marks only', '\u0301\u0308\u0323\u20DD'],
  ['one zero-width space', '\u200B'],
  ['Hangul fillers', '\u3164\uFFA0'],
  ['variation selectors and tags', '\uFE0F\u{E0041}\u{E007F}'],
  ['a Mongolian vowel separator and a soft hyphen', '\u180E\u00AD'],
];

describe('text fields that would show nothing', () => {
  let app: TestApp;
  let member: Account;
  let editor: Account;
  let creator: Account;
  let gameId: number;
  let postId: number;

  beforeAll(async () => {
    app = await createTestApp();
    member = await makeAccount(app, 'blank_member');
    editor = await makeAccount(app, 'blank_editor', 'editor');
    creator = await makeAccount(app, 'blank_creator', 'creator');
    gameId = await saveGalgame(app.ctx.db, { title: 'Blank Echo', releaseDate: '2024-01-01', status: 'published' });
    await insertSection(app, 5001, '空白');
    const post = await call<PostDetail>(app, 'POST', '/community/posts', member.token, {
      title: '看得见',
      content: '正文',
      sectionId: 5001,
      publish: true,
    });
    postId = data(post.body).id;
  });
  afterAll(async () => app.close());

  /** What the refused calls could have written. */
  async function snapshot() {
    const db = app.ctx.db;
    return {
      profile: await db
        .selectFrom('users')
        .select(['name', 'signature', 'bio'])
        .where('id', '=', member.id)
        .executeTakeFirst(),
      ratings: await db.selectFrom('rating').selectAll().execute(),
      reports: await db.selectFrom('report').selectAll().execute(),
      sections: await db.selectFrom('section').select(['id', 'name', 'description']).execute(),
      articles: await db.selectFrom('article').select(['id', 'title', 'body']).execute(),
      emojiSets: await db.selectFrom('emoji_set').selectAll().execute(),
      applications: await db.selectFrom('creator_application').selectAll().execute(),
    };
  }

  const fields: [string, string, (text: string) => Promise<Answer>][] = [
    ['signature', '签名', (text) => call(app, 'PUT', '/user/profile', member.token, { signature: text })],
    ['bio', '个人简介', (text) => call(app, 'PUT', '/user/profile', member.token, { bio: text })],
    [
      'rating text',
      '短评',
      (text) => call(app, 'PUT', `/galgame/${gameId}/rating`, member.token, { score: 8, status: 'playing', text }),
    ],
    [
      'report text',
      '',
      (text) =>
        call(app, 'POST', '/reports', member.token, { targetType: 'post', targetId: postId, reason: 'other', text }),
    ],
    [
      'article draft body',
      '正文',
      (text) =>
        call(app, 'POST', '/community/articles', member.token, {
          title: '草稿',
          body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
          sectionId: 5001,
          publish: false,
        }),
    ],
    ['section name', '', (text) => call(app, 'POST', '/creator/sections', editor.token, { name: text })],
    [
      'section description',
      '',
      (text) => call(app, 'POST', '/creator/sections', editor.token, { name: '新版块', description: text }),
    ],
    ['emoji set name', '', (text) => call(app, 'POST', '/emoji/emoji-set', creator.token, { name: text })],
    [
      'creator application reason',
      '',
      (text) => call(app, 'POST', '/user/creator-application/submit', member.token, { reason: text.repeat(10) }),
    ],
  ];

  it.each(INVISIBLE)('refuses %s in every field, storing nothing', async (_what, text) => {
    const before = await snapshot();
    for (const [field, label, send] of fields) {
      const answer = await send(text);
      expectFailure(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.message, field).not.toMatch(/^(validation|server|comments|sections|application)\./);
      if (label) expect(answer.body.message, field).toMatch(new RegExp(`^${label}只有看不见的字符`));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('still takes these fields with something to see, and an empty signature', async () => {
    const saved = await call(app, 'PUT', '/user/profile', member.token, {
      signature: '\u200B看得见\u200B',
      bio: 'e\u0301',
    });
    expect(saved.res.status).toBe(200);
    expect((await call(app, 'PUT', '/user/profile', member.token, { signature: '' })).res.status).toBe(200);
    const section = await call(app, 'POST', '/creator/sections', editor.token, { name: '⠁点字' });
    expect(section.res.status, JSON.stringify(section.body)).toBe(201);
    const set = await call(app, 'POST', '/emoji/emoji-set', creator.token, { name: 'ㄱ_set' });
    expect(set.res.status, JSON.stringify(set.body)).toBe(201);
  });

  it('answers very long invisible text with a refusal (too long, or a body too large), never a failure', async () => {
    const before = await snapshot();
    const long = '\u200B\u0301'.repeat(50_000);
    for (const [field, , send] of fields) {
      const answer = await send(long);
      expect([400, 413], field).toContain(answer.res.status);
    }
    expect(await snapshot()).toEqual(before);
  });
});
