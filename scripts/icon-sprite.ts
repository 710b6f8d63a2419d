// npm run icons — writes the icon sprite (src/assets/icon-sprite.svg) from src/shared/icons.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ICON_SPRITE_FILE, iconSprite } from '../src/shared/icon-sprite.ts';

const file = path.resolve(import.meta.dirname, '..', ICON_SPRITE_FILE);
const next = iconSprite();
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // First run: no sprite yet.
}
if (current === next) {
  console.log(`${ICON_SPRITE_FILE} is up to date`);
} else {
  writeFileSync(file, next);
  console.log(`${ICON_SPRITE_FILE} written`);
}
