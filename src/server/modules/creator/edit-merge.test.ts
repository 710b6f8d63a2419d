import { describe, expect, it } from 'vitest';
import { EMPTY_DOCS, type TagDoc } from '../../../shared/creator/docs.ts';
import { mergeEdit } from './edit-merge.ts';

const base: TagDoc = { ...EMPTY_DOCS.tag, name: 'Romance', description: 'Love stories' };

describe('merging an edit onto the item as it is now', () => {
  it('applies the edit when nothing changed since its base', () => {
    const proposed = { ...base, nameZh: '恋爱' };
    const result = mergeEdit('tag', base, base, proposed);
    expect(result.conflicts).toEqual([]);
    expect(result.doc).toEqual(proposed);
    expect(result.changes).toEqual([{ field: 'nameZh', before: '', after: '恋爱' }]);
  });

  it('keeps fields changed only since the base and lays the edit over the others', () => {
    const current = { ...base, description: 'Stories of love' };
    const proposed = { ...base, nameZh: '恋爱' };
    const result = mergeEdit('tag', base, current, proposed);
    expect(result.conflicts).toEqual([]);
    expect(result.doc).toEqual({ ...base, description: 'Stories of love', nameZh: '恋爱' });
    expect(result.changes.map((c) => c.field)).toEqual(['nameZh']);
  });

  it('is no conflict when both changed a field to the same value', () => {
    const current = { ...base, nameZh: '恋爱' };
    const result = mergeEdit('tag', base, current, { ...base, nameZh: '恋爱' });
    expect(result.conflicts).toEqual([]);
    expect(result.changes).toEqual([]);
  });

  it('names fields both changed differently, and takes them over only when overwrite names exactly those', () => {
    const current = { ...base, nameZh: '爱情', category: 'theme' as const };
    const proposed = { ...base, nameZh: '恋爱', description: 'Romantic stories' };
    const refused = mergeEdit('tag', base, current, proposed);
    expect(refused.conflicts).toEqual([{ field: 'nameZh', base: '', current: '爱情', proposed: '恋爱' }]);
    expect(refused.doc.nameZh).toBe('爱情');

    expect(mergeEdit('tag', base, current, proposed, ['nameZh', 'name']).conflicts).toHaveLength(1);
    expect(mergeEdit('tag', base, current, proposed, ['name']).conflicts).toHaveLength(1);

    const taken = mergeEdit('tag', base, current, proposed, ['nameZh']);
    expect(taken.conflicts).toEqual([]);
    expect(taken.doc).toEqual({ ...current, nameZh: '恋爱', description: 'Romantic stories' });
    expect(taken.changes.map((c) => c.field)).toEqual(['nameZh', 'description']);
  });

  it('compares lists whole, whatever the key order of their entries', () => {
    const game = { ...EMPTY_DOCS.galgame, title: 'A', tags: [{ tagId: 1, spoiler: 0 }] };
    const reordered = { ...game, tags: [{ spoiler: 0, tagId: 1 }] };
    const result = mergeEdit('galgame', game, game, reordered);
    expect(result.changes).toEqual([]);
    const current = { ...game, tags: [{ tagId: 2, spoiler: 0 }] };
    const proposed = { ...game, tags: [{ tagId: 1, spoiler: 2 }] };
    expect(mergeEdit('galgame', game, current, proposed).conflicts.map((c) => c.field)).toEqual(['tags']);
  });
});
