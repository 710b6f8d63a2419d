import type { GalgameCard } from '../../shared/catalogue.ts';
import type { Translate } from '../../shared/i18n/index.ts';

/** "03-14" → "3 月 14 日"; a full date is shown as it is; '' stays ''. */
export function birthdayText(birthday: string, t: Translate): string {
  const match = /^(\d{2})-(\d{2})$/.exec(birthday.trim());
  if (!match) return birthday.trim();
  return t('entity.birthdayValue', { month: Number(match[1]), day: Number(match[2]) });
}

/** One card per game, with every role the entity had in it joined ('剧本、音乐'), in first-seen order. */
export function gamesWithRoles<G extends GalgameCard & { role: string }>(
  games: readonly G[],
  label: (role: string) => string,
): (GalgameCard & { note: string })[] {
  const byGame = new Map<number, { game: G; roles: string[] }>();
  for (const game of games) {
    const entry = byGame.get(game.id);
    const role = label(game.role);
    if (!entry) byGame.set(game.id, { game, roles: [role] });
    else if (!entry.roles.includes(role)) entry.roles.push(role);
  }
  return [...byGame.values()].map(({ game, roles }) => {
    const { role: _role, ...card } = game;
    return { ...card, note: roles.join('、') };
  });
}
