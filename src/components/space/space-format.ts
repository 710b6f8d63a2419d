import type { Translate } from '../../shared/i18n/index.ts';
import type { TargetType } from '../../shared/targets.ts';

const NAMED = ['galgame', 'post', 'article', 'person', 'character', 'producer'] as const;

/** What a comment or favourite is on, as a word ("game", "post"…). */
export function targetLabel(t: Translate, type: TargetType): string {
  const named = NAMED.find((name) => name === type);
  return t(named ? `space.target.${named}` : 'space.target.other');
}
