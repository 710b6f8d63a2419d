import { describe, expect, it } from 'vitest';
import { nameSkeleton } from './name-skeleton.ts';

describe('name skeletons', () => {
  it.each([
    ['hik\u0430ri_admin', 'a Cyrillic а'],
    ['hikari_\u03B1dmin', 'a Greek α'],
    ['ｈｉｋａｒｉ＿ａｄｍｉｎ', 'full-width letters'],
    ['HIKARI_ADMIN', 'capitals'],
    ['hikari_adrnin', 'rn for m'],
    [' hikari_admin ', 'spaces around'],
  ])('gives %s (%s) the skeleton of hikari_admin', (name) => {
    expect(nameSkeleton(name)).toBe(nameSkeleton('hikari_admin'));
  });

  it('keeps names that do not look alike apart', () => {
    expect(nameSkeleton('hikari_admin2')).not.toBe(nameSkeleton('hikari_admin'));
    expect(nameSkeleton('光之')).toBe('光之');
    expect(nameSkeleton('sakura')).not.toBe(nameSkeleton('sakuya'));
  });
});
