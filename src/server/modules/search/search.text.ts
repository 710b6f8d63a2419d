import * as OpenCC from 'opencc-js/t2cn';

// How search reads text (decision 024). Names and queries go through the same steps, one character of
// the original at a time, so every position of the normalised text points back into the original (for
// highlighting):
//   NFKC (full-width → half-width, half-width kana → full-width, ① → 1), lower case, Latin letters
//   without their accents, katakana → hiragana, traditional and Japanese-form Han characters →
//   simplified (OpenCC, character by character so both sides always agree).
// The normalised characters are then CJK (Han, kana, Hangul), word characters (other letters and
// digits) or separators (everything else). CJK text is indexed as single characters plus overlapping
// bigrams (separators between CJK characters are skipped: "恋爱·少女" reads as "恋爱少女"), Latin
// text as words, plus all the words of a name run together ("fatestaynight").

const fromTraditional = OpenCC.Converter({ from: 'tw', to: 'cn' });
const fromJapanese = OpenCC.Converter({ from: 'jp', to: 'cn' });

export type CharClass = 'cjk' | 'word';

/** One normalised character and the original UTF-16 range it came from. */
export interface Unit {
  ch: string;
  cls: CharClass;
  start: number;
  end: number;
}

const HAN = /\p{Script=Han}/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005\u3006]/u;
const WORD = /[\p{L}\p{N}]/u;
const MARKS = /\p{M}/gu;
const LATIN = /\p{Script=Latin}/u;

const folded = new Map<string, string>();

/** What one character of the original becomes: zero or more normalised characters. */
export function foldChar(ch: string): string {
  const known = folded.get(ch);
  if (known !== undefined) return known;
  let out = '';
  for (const c of ch.normalize('NFKC').toLowerCase()) {
    let x = c;
    if (LATIN.test(x)) x = x.normalize('NFD').replace(MARKS, '');
    const code = x.codePointAt(0) ?? 0;
    // Katakana ァ…ヶ → hiragana ぁ…ゖ (ヴ → ゔ); the prolonged sound mark ー stays.
    if (code >= 0x30a1 && code <= 0x30f6) x = String.fromCodePoint(code - 0x60);
    if (HAN.test(x)) {
      const simplified = fromJapanese(fromTraditional(x));
      if ([...simplified].length === 1) x = simplified;
    }
    out += x;
  }
  if (folded.size < 200_000) folded.set(ch, out);
  return out;
}

/** The text as normalised units, separators dropped. */
export function units(text: string): Unit[] {
  const out: Unit[] = [];
  let offset = 0;
  for (const ch of text) {
    const start = offset;
    offset += ch.length;
    for (const c of foldChar(ch)) {
      const last = out.at(-1);
      if ((c === '\u3099' || c === '\u309A') && last?.cls === 'cjk') {
        // A separate (half-width) voiced sound mark joins the kana before it: ﾊﾞ → ば.
        const composed = (last.ch + c).normalize('NFC');
        if ([...composed].length === 1) {
          last.ch = composed;
          last.end = offset;
        }
        continue;
      }
      const cls: CharClass | null = CJK.test(c) ? 'cjk' : WORD.test(c) ? 'word' : null;
      if (cls) out.push({ ch: c, cls, start, end: offset });
    }
  }
  return out;
}

/**
 * The name's key: normalised, without separators. Two names with the same key are the same name to a
 * reader ("Fate/stay night", "ＦＡＴＥ stay-night"); exact and prefix matches compare keys.
 */
export const nameKey = (text: string): string =>
  units(text)
    .map((u) => u.ch)
    .join('');

/**
 * Runs of one class. CJK characters separated only by separators stay in one run; a word run ends at
 * any separator or CJK character (so words are whole words).
 */
function runs(list: Unit[]): { cls: CharClass; units: Unit[] }[] {
  const out: { cls: CharClass; units: Unit[] }[] = [];
  let prev: Unit | null = null;
  for (const u of list) {
    const last = out.at(-1);
    // Nothing was dropped between the two: the same original character, or the next one.
    const adjacent = prev !== null && (prev.end === u.start || prev.start === u.start);
    if (last !== undefined && last.cls === u.cls && (u.cls === 'cjk' || adjacent)) last.units.push(u);
    else out.push({ cls: u.cls, units: [u] });
    prev = u;
  }
  return out;
}

/** The tokens a name is indexed under: CJK single characters and bigrams, words, the words run together. */
export function indexTokens(text: string): string[] {
  const tokens = new Set<string>();
  const words: string[] = [];
  for (const run of runs(units(text))) {
    const chars = run.units.map((u) => u.ch);
    if (run.cls === 'word') {
      const word = chars.join('');
      tokens.add(word);
      words.push(word);
      continue;
    }
    for (let i = 0; i < chars.length; i++) {
      tokens.add(chars[i]!);
      if (i + 1 < chars.length) tokens.add(chars[i]! + chars[i + 1]!);
    }
  }
  if (words.length > 1) tokens.add(words.join(''));
  return [...tokens];
}

/** A term of a query: a CJK character or bigram, or a word (`prefix`: any indexed word starting with it). */
export interface QueryTerm {
  text: string;
  word: boolean;
  prefix: boolean;
}

/** At most this many distinct terms are matched (a 100-character query still searches its start). */
export const MAX_TERMS = 24;

/**
 * The terms of a query: one CJK character alone is that character, longer CJK runs are their bigrams,
 * words are whole words except the last word of the query, which may still be being typed (a
 * prefix). Every term must match (decision 024).
 */
export function queryTerms(text: string): QueryTerm[] {
  const terms = new Map<string, QueryTerm>();
  const list = runs(units(text));
  list.forEach((run, index) => {
    const chars = run.units.map((u) => u.ch);
    if (run.cls === 'word') {
      const word = chars.join('');
      const prefix = index === list.length - 1;
      const known = terms.get(`w:${word}`);
      terms.set(`w:${word}`, { text: word, word: true, prefix: prefix && (known?.prefix ?? true) });
    } else if (chars.length === 1) terms.set(`c:${chars[0]}`, { text: chars[0]!, word: false, prefix: false });
    else
      for (let i = 0; i + 1 < chars.length; i++)
        terms.set(`c:${chars[i]}${chars[i + 1]}`, { text: chars[i]! + chars[i + 1]!, word: false, prefix: false });
  });
  return [...terms.values()].slice(0, MAX_TERMS);
}

/**
 * Where the query's terms occur in a name, as merged [start, end) UTF-16 ranges of the original name:
 * CJK terms wherever their characters stand in a row, words at the start of a word of the name.
 */
export function highlightRanges(name: string, query: string): [number, number][] {
  const list = units(name);
  const marked = new Array<boolean>(list.length).fill(false);
  const terms = queryTerms(query);
  const nameRuns = runs(list);
  let index = 0;
  for (const run of nameRuns) {
    const base = index;
    index += run.units.length;
    const chars = run.units.map((u) => u.ch);
    for (const term of terms) {
      const t = [...term.text];
      if (run.cls === 'word') {
        const word = chars.join('');
        if (term.word && (term.prefix ? word.startsWith(term.text) : word === term.text))
          for (let i = 0; i < t.length; i++) marked[base + i] = true;
        continue;
      }
      if (term.word) continue;
      for (let i = 0; i + t.length <= chars.length; i++) {
        if (t.every((c, j) => chars[i + j] === c)) for (let j = 0; j < t.length; j++) marked[base + i + j] = true;
      }
    }
  }
  const ranges: [number, number][] = [];
  list.forEach((u, i) => {
    if (!marked[i]) return;
    const last = ranges.at(-1);
    if (last && last[1] >= u.start) last[1] = Math.max(last[1], u.end);
    else ranges.push([u.start, u.end]);
  });
  return ranges;
}
