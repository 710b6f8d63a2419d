// The demo emoji set "hikari", drawn here as SVG (our own drawings, no fonts or outside images): round
// faces and a few symbols in the theme colour #39c5bb and friends. demo-emoji.ts renders them to webp.

const TEAL = '#39c5bb';
const TEAL_DARK = '#23877f';
const YELLOW = '#ffd166';
const YELLOW_DARK = '#c9962a';
const PINK = '#ff8fab';
const PINK_DARK = '#d9577a';
const BLUE = '#7cc6fe';
const BLUE_DARK = '#3d8fcc';
const RED = '#ff7b6b';
const RED_DARK = '#c7463a';
const PURPLE = '#b9a3e3';
const PURPLE_DARK = '#7c64b0';
const INK = '#2b2d42';
const WHITE = '#ffffff';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">${body}</svg>`;

/** A round face with rosy cheeks; `features` are drawn on top. */
const face = (fill: string, outline: string, features: string, cheeks = true) =>
  svg(
    `<circle cx="48" cy="50" r="40" fill="${fill}" stroke="${outline}" stroke-width="4"/>` +
      (cheeks
        ? `<ellipse cx="26" cy="60" rx="7" ry="4.5" fill="${PINK}" opacity="0.7"/>` +
          `<ellipse cx="70" cy="60" rx="7" ry="4.5" fill="${PINK}" opacity="0.7"/>`
        : '') +
      features,
  );

const dotEyes = `<circle cx="35" cy="44" r="5" fill="${INK}"/><circle cx="61" cy="44" r="5" fill="${INK}"/>`;
const happyEyes =
  `<path d="M28 46 Q35 36 42 46" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
  `<path d="M54 46 Q61 36 68 46" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>`;
const smileMouth = `<path d="M34 62 Q48 76 62 62" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>`;
const frownMouth = `<path d="M36 72 Q48 62 60 72" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>`;

/** Emoji name → drawing, in the order the set shows them. */
export const demoEmojiArt: Readonly<Record<string, string>> = {
  smile: face(TEAL, TEAL_DARK, dotEyes + smileMouth),
  laugh: face(
    YELLOW,
    YELLOW_DARK,
    happyEyes +
      `<path d="M30 58 H66 Q64 80 48 80 Q32 80 30 58 Z" fill="${INK}"/>` +
      `<path d="M38 73 Q48 66 58 73 Q54 79 48 79 Q42 79 38 73 Z" fill="${PINK}"/>`,
  ),
  cry: face(
    BLUE,
    BLUE_DARK,
    `<path d="M28 42 Q35 48 42 42" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
      `<path d="M54 42 Q61 48 68 42" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
      `<path d="M33 50 Q28 62 33 68 Q38 62 33 50 Z" fill="${WHITE}" stroke="${BLUE_DARK}" stroke-width="2"/>` +
      `<path d="M63 50 Q58 62 63 68 Q68 62 63 50 Z" fill="${WHITE}" stroke="${BLUE_DARK}" stroke-width="2"/>` +
      frownMouth,
    false,
  ),
  angry: face(
    RED,
    RED_DARK,
    `<path d="M26 34 L42 40" stroke="${INK}" stroke-width="5" stroke-linecap="round"/>` +
      `<path d="M70 34 L54 40" stroke="${INK}" stroke-width="5" stroke-linecap="round"/>` +
      `<circle cx="36" cy="48" r="4.5" fill="${INK}"/><circle cx="60" cy="48" r="4.5" fill="${INK}"/>` +
      frownMouth +
      `<path d="M72 16 l4 6 l6 -4 M78 12 l0 7 l7 1" fill="none" stroke="${RED_DARK}" stroke-width="3" stroke-linecap="round"/>`,
    false,
  ),
  heart: svg(
    `<path d="M48 84 C20 64 8 48 12 32 C16 16 36 12 48 28 C60 12 80 16 84 32 C88 48 76 64 48 84 Z" ` +
      `fill="${PINK}" stroke="${PINK_DARK}" stroke-width="4" stroke-linejoin="round"/>` +
      `<path d="M24 34 Q26 24 36 24" fill="none" stroke="${WHITE}" stroke-width="5" stroke-linecap="round" opacity="0.8"/>`,
  ),
  star: svg(
    `<polygon points="48,8 59,35 88,37 66,56 73,85 48,69 23,85 30,56 8,37 37,35" ` +
      `fill="${YELLOW}" stroke="${TEAL_DARK}" stroke-width="4" stroke-linejoin="round"/>` +
      `<circle cx="40" cy="48" r="3.5" fill="${INK}"/><circle cx="56" cy="48" r="3.5" fill="${INK}"/>` +
      `<path d="M42 57 Q48 62 54 57" fill="none" stroke="${INK}" stroke-width="3" stroke-linecap="round"/>`,
  ),
  'thumbs-up': svg(
    // A hand giving a thumbs-up: sleeve, fist with folded fingers, thumb raised.
    `<rect x="10" y="46" width="18" height="38" rx="4" fill="${TEAL}" stroke="${TEAL_DARK}" stroke-width="4"/>` +
      `<path d="M28 48 L42 48 L46 20 Q48 10 56 12 Q62 14 60 26 L57 42 L78 42 Q86 42 85 50 L80 78 Q78 84 70 84 L28 84 Z" ` +
      `fill="${YELLOW}" stroke="${YELLOW_DARK}" stroke-width="4" stroke-linejoin="round"/>` +
      `<path d="M60 54 H80 M60 64 H78 M60 74 H76" stroke="${YELLOW_DARK}" stroke-width="3" stroke-linecap="round"/>`,
  ),
  question: svg(
    `<circle cx="48" cy="48" r="40" fill="${TEAL}" stroke="${TEAL_DARK}" stroke-width="4"/>` +
      `<path d="M34 36 Q34 20 48 20 Q62 20 62 34 Q62 44 50 48 L50 58" fill="none" stroke="${WHITE}" ` +
      `stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>` +
      `<circle cx="50" cy="72" r="6" fill="${WHITE}"/>`,
  ),
  sweat: face(
    TEAL,
    TEAL_DARK,
    dotEyes +
      `<path d="M36 66 Q42 62 48 66 Q54 70 60 66" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
      `<path d="M78 14 Q70 28 74 34 Q80 38 84 32 Q86 26 78 14 Z" fill="${BLUE}" stroke="${BLUE_DARK}" stroke-width="3"/>`,
  ),
  sleepy: face(
    PURPLE,
    PURPLE_DARK,
    `<path d="M28 46 H42 M54 46 H68" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
      `<ellipse cx="48" cy="66" rx="5" ry="6" fill="${INK}"/>` +
      `<path d="M66 10 H78 L66 22 H78 M80 24 H88 L80 32 H88" fill="none" stroke="${PURPLE_DARK}" ` +
      `stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>`,
  ),
  surprised: face(
    YELLOW,
    YELLOW_DARK,
    `<circle cx="35" cy="42" r="8" fill="${WHITE}" stroke="${INK}" stroke-width="3"/><circle cx="35" cy="42" r="3.5" fill="${INK}"/>` +
      `<circle cx="61" cy="42" r="8" fill="${WHITE}" stroke="${INK}" stroke-width="3"/><circle cx="61" cy="42" r="3.5" fill="${INK}"/>` +
      `<ellipse cx="48" cy="68" rx="8" ry="10" fill="${INK}"/>`,
    false,
  ),
  wink: face(
    TEAL,
    TEAL_DARK,
    `<circle cx="35" cy="44" r="5" fill="${INK}"/>` +
      `<path d="M54 46 Q61 36 68 46" fill="none" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>` +
      smileMouth +
      `<path d="M52 68 Q56 78 62 70" fill="${PINK}" stroke="${PINK_DARK}" stroke-width="2"/>`,
  ),
};
