import { beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_DOCS } from '../shared/creator/docs.ts';
import {
  changedFields,
  checkDoc,
  editorPath,
  emptyDoc,
  linkedIds,
  loadDocSchemas,
  readConflict,
  serverFieldErrors,
  shortValue,
} from './item-editor.ts';

describe('item editor logic', () => {
  beforeAll(async () => {
    await loadDocSchemas();
  });

  it('checks a document with the shared schema and keeps the first problem of each field', () => {
    const doc = { ...emptyDoc('galgame'), title: '', cover: 'javascript:alert(1)' };
    const result = checkDoc('galgame', doc);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['cover', 'title']);
    expect(result.errors.cover).toMatch(/^revision\.error\.url/);
    const good = checkDoc('person', { ...emptyDoc('person'), name: 'Someone' });
    expect(good.ok).toBe(true);
  });

  it('reads server field paths with or without the doc prefix', () => {
    expect(
      serverFieldErrors([
        { path: 'doc.staff.2.role', message: 'a' },
        { path: 'doc.staff.3.role', message: 'b' },
        { path: 'title', message: 'c' },
        { path: 'note', message: 'd' },
        { message: 'e' },
      ]),
    ).toEqual({ staff: 'a', 'staff.2.role': 'a', 'staff.3.role': 'b', title: 'c', note: 'd', _doc: 'e' });
  });

  it('lists changed fields against the base, or against an empty document for a new item', () => {
    const base = { ...emptyDoc('tag'), name: 'Old' };
    expect(changedFields('tag', base, { ...base, name: 'New' }).map((c) => c.field)).toEqual(['name']);
    expect(changedFields('tag', null, { ...emptyDoc('tag'), name: 'x', description: 'y' }).map((c) => c.field)).toEqual(
      ['name', 'description'],
    );
  });

  it('gives a fresh copy of the empty document', () => {
    const doc = emptyDoc('galgame');
    doc.aliases.push('x');
    expect(EMPTY_DOCS.galgame.aliases).toEqual([]);
  });

  it('collects linked ids per type', () => {
    const doc = {
      ...emptyDoc('galgame'),
      tags: [{ tagId: 3, spoiler: 0 }],
      staff: [
        { personId: 5, role: 'music' as const, note: '' },
        { personId: 5, role: 'art' as const, note: '' },
      ],
      characters: [{ characterId: 7, role: 'main' as const, voicePersonId: 9 }],
      relations: [{ galgameId: 11, relation: 'sequel' as const }],
    };
    expect(linkedIds('galgame', doc)).toEqual({ tag: [3], person: [5, 9], character: [7], galgame: [11] });
    expect(linkedIds('volume', { ...emptyDoc('volume'), lightnovelId: 4 })).toEqual({ lightnovel: [4] });
    expect(linkedIds('volume', emptyDoc('volume'))).toEqual({});
  });

  it('reads conflicts, paths and short values', () => {
    expect(readConflict({ currentRevision: 3, fields: [] })).toEqual({ currentRevision: 3, fields: [] });
    expect(readConflict({ issues: [] })).toBeNull();
    expect(editorPath('volume', 2)).toBe('/create/item/lightnovel/volume?id=2');
    expect(editorPath('person', null)).toBe('/create/entity/person');
    expect(shortValue(['a'])).toBe('["a"]');
    expect(shortValue('x'.repeat(100), 10)).toHaveLength(10);
  });
});

describe('who is offered to change an EPUB', () => {
  it('offers an upload to any creator, replace and remove only to its owners and editors', async () => {
    const { mayChangeEpub } = await import('../components/islands/lightnovel/EpubUpload.tsx');
    const creator = { _id: 'a', hikariUserGroup: 'creator' };
    expect(mayChangeEpub(creator, false, [])).toBe(true);
    expect(mayChangeEpub(creator, true, ['b'])).toBe(false);
    expect(mayChangeEpub(creator, true, ['b', 'a'])).toBe(true);
    expect(mayChangeEpub({ _id: 'c', hikariUserGroup: 'editor' }, true, [])).toBe(true);
    expect(mayChangeEpub({ _id: 'd', hikariUserGroup: 'user' }, false, [])).toBe(false);
    expect(mayChangeEpub(null, false, [])).toBe(false);
  });
});
