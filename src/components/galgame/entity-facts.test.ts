import { describe, expect, it } from 'vitest';
import type { GalgameCard } from '../../shared/catalogue.ts';
import { translator } from '../../shared/i18n/catalogues.ts';
import { birthdayText, gamesWithRoles } from './entity-facts.ts';

const t = translator('zh-CN');

describe('entity facts', () => {
  it('writes month-day birthdays in words', () => {
    expect(birthdayText('03-14', t)).toBe('3 月 14 日');
    expect(birthdayText('', t)).toBe('');
    expect(birthdayText('1990-01-02', t)).toBe('1990-01-02');
  });

  it('merges the roles of one game into one card', () => {
    const game = (id: number, role: string) => ({ id, title: `g${id}`, role }) as GalgameCard & { role: string };
    const cards = gamesWithRoles(
      [game(1, 'director'), game(2, 'art'), game(1, 'scenario'), game(1, 'director')],
      (r) => (r === 'director' ? '监督' : r === 'scenario' ? '剧本' : '原画'),
    );
    expect(cards.map((c) => [c.id, c.note])).toEqual([
      [1, '监督、剧本'],
      [2, '原画'],
    ]);
    expect(cards[0]).not.toHaveProperty('role');
  });
});
