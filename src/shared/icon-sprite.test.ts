import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICON_SPRITE_FILE, iconSprite } from './icon-sprite.ts';
import { icons } from './icons.ts';

describe('the icon sprite', () => {
  it('is the one the icon list generates', () => {
    const file = readFileSync(path.resolve(import.meta.dirname, '../..', ICON_SPRITE_FILE), 'utf8');
    expect(file === iconSprite(), `${ICON_SPRITE_FILE} differs from src/shared/icons.ts: run \`npm run icons\``).toBe(
      true,
    );
  });

  it('has one symbol per icon, named as components refer to it, with lucide’s 24×24 box', () => {
    const sprite = iconSprite();
    for (const name of Object.keys(icons)) expect(sprite).toContain(`<symbol id="${name}" viewBox="0 0 24 24">`);
    expect(sprite.match(/<symbol /g)).toHaveLength(Object.keys(icons).length);
    expect(sprite).toContain('<symbol id="menu" viewBox="0 0 24 24"><path d="M4 5h16"/>');
  });
});
