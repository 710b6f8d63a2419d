// The infobox (wiki template) of a Bangumi subject, person or character, following
// bangumi/wiki-syntax-spec.

export interface InfoboxItem {
  key: string;
  value: string;
}
export type InfoboxValue = string | InfoboxItem[];
export interface Infobox {
  /** The template name after `{{Infobox`, e.g. "Game" or "animanga/TVAnime". */
  type: string;
  fields: Map<string, InfoboxValue>;
}

/**
 * Parses `{{Infobox Type\n|key= value\n|list={\n[a]\n[k|v]\n}\n}}`. Lenient like the site itself: text
 * that is not a wiki gives no fields, a list left open ends at `}}`, an item without brackets is taken
 * as is, and a field given twice keeps every value (as a list).
 */
export function parseInfobox(wiki: string): Infobox {
  const fields = new Map<string, InfoboxValue>();
  const lines = wiki.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((l) => l.trim() !== '');
  const head = lines[start]?.trim() ?? '';
  if (!/^\{\{infobox/i.test(head)) return { type: '', fields };
  const type = head.slice('{{Infobox'.length).trim();

  const add = (key: string, value: InfoboxValue) => {
    const previous = fields.get(key);
    if (previous === undefined) return void fields.set(key, value);
    const asItems = (v: InfoboxValue): InfoboxItem[] => (typeof v === 'string' ? [{ key: '', value: v }] : v);
    fields.set(key, [...asItems(previous), ...asItems(value)]);
  };

  let list: { key: string; items: InfoboxItem[] } | null = null;
  for (const raw of lines.slice(start + 1)) {
    const line = raw.trim();
    if (list) {
      if (line === '}' || line === '}}') {
        add(list.key, list.items);
        list = null;
        if (line === '}}') break;
      } else if (line !== '') {
        const inner = line.startsWith('[') ? line.slice(1, line.endsWith(']') ? -1 : undefined) : line;
        const bar = inner.indexOf('|');
        list.items.push(
          bar < 0
            ? { key: '', value: inner.trim() }
            : { key: inner.slice(0, bar).trim(), value: inner.slice(bar + 1).trim() },
        );
      }
      continue;
    }
    if (line === '}}') break;
    if (!line.startsWith('|')) continue;
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line.slice(1) : line.slice(1, eq)).trim();
    const value = eq < 0 ? '' : line.slice(eq + 1).trim();
    if (!key) continue;
    if (value === '{') list = { key, items: [] };
    else if (/^\{\s*\}$/.test(value)) add(key, []);
    else add(key, value);
  }
  if (list) add(list.key, list.items);
  return { type, fields };
}

/** Every non-empty value of the first of `keys` the infobox has (a scalar is a one-value list). */
export function infoboxValues(box: Infobox, ...keys: string[]): string[] {
  for (const key of keys) {
    const value = box.fields.get(key);
    if (value === undefined) continue;
    const values = typeof value === 'string' ? [value] : value.map((item) => item.value);
    return values.filter((v) => v !== '');
  }
  return [];
}

export const infoboxText = (box: Infobox, ...keys: string[]): string => infoboxValues(box, ...keys)[0] ?? '';

/** Company names in one infobox value: "A、B" or "A / B" name two. */
export function splitNames(values: string[]): string[] {
  const names = values.flatMap((v) => v.split(/[、，,／]|\s+\/\s+|\//)).map((n) => n.trim());
  return [...new Set(names.filter((n) => n !== ''))];
}
