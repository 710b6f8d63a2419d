import { icons, type IconNode } from './icons.ts';

/** The file the sprite is written to (`npm run icons`), imported by the icon components as a URL. */
export const ICON_SPRITE_FILE = 'src/assets/icon-sprite.svg';

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function symbol(id: string, node: IconNode): string {
  const children = node
    .map(([tag, attrs]) => {
      const list = Object.entries(attrs)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
        .join('');
      return `<${tag}${list}/>`;
    })
    .join('');
  return `<symbol id="${id}" viewBox="0 0 24 24">${children}</symbol>`;
}

/**
 * Every icon as one `<symbol>` of a single SVG file, which pages and islands reference with
 * `<use href="…#name">`: the paths are downloaded once and cached, instead of repeated inline in
 * every page and bundled into the islands. Fill and stroke come from the referencing `<svg>`.
 */
export function iconSprite(): string {
  const symbols = Object.entries(icons).map(([id, node]) => symbol(id, node));
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`;
}
