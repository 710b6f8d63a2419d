import { describe, expect, it } from 'vitest';
import { moveId } from './sections-manage.ts';

describe('moveId', () => {
  it('swaps an id with its neighbour and leaves the ends alone', () => {
    expect(moveId([1, 2, 3], 1, -1)).toEqual([2, 1, 3]);
    expect(moveId([1, 2, 3], 1, 1)).toEqual([1, 3, 2]);
    expect(moveId([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveId([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
    expect(moveId([1, 2, 3], 5, 1)).toEqual([1, 2, 3]);
  });
});
