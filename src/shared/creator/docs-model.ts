import type { EditType } from './creator-model.ts';
import type { EditDocs } from './docs.ts';

/**
 * The constants and pure helpers of the editable documents (see docs.ts), without their schemas: the
 * editors' islands load these at once and the zod schemas of docs.ts only when they first validate.
 */

export const TAG_CATEGORIES = ['content', 'setting', 'plot', 'character', 'theme', 'technical'] as const;
export type TagCategory = (typeof TAG_CATEGORIES)[number];
export const PRODUCER_KINDS = ['company', 'individual', 'amateur'] as const;
export type ProducerKind = (typeof PRODUCER_KINDS)[number];

/** Limits of the documents (also the editors' maxLength). */
export const DOC_LIMITS = {
  title: 200,
  intro: 10_000,
  description: 5_000,
  aliases: 20,
  images: 30,
  prices: 10,
  tags: 100,
  producers: 50,
  staff: 200,
  characters: 200,
  relations: 50,
  note: 100,
  short: 50,
  isbn: 20,
  price: 30,
  tagName: 50,
  downloads: 30,
  links: 10,
  /** 1 PiB: more than any game, less than a double counts exactly. */
  sizeBytes: 2 ** 50,
} as const;

/** The fields of each document, in the order editors and diffs show them. */
export const DOC_FIELDS: { [T in EditType]: readonly (keyof EditDocs[T] & string)[] } = {
  galgame: [
    'title',
    'titleZh',
    'aliases',
    'intro',
    'releaseDate',
    'prices',
    'cover',
    'images',
    'nsfw',
    'platforms',
    'tags',
    'producers',
    'staff',
    'characters',
    'relations',
    'downloads',
  ],
  lightnovel: ['name', 'nameZh', 'aliases', 'intro', 'cover', 'serialStatus', 'nsfw', 'staff', 'producers'],
  volume: [
    'lightnovelId',
    'kind',
    'number',
    'title',
    'titleZh',
    'intro',
    'cover',
    'isbn',
    'releaseDate',
    'pages',
    'price',
  ],
  person: ['name', 'nameZh', 'aliases', 'description', 'image', 'gender', 'birthday'],
  character: ['name', 'nameZh', 'aliases', 'description', 'image', 'gender', 'birthday'],
  producer: ['name', 'nameZh', 'aliases', 'description', 'image', 'kind', 'website'],
  tag: ['name', 'nameZh', 'category', 'description'],
};

/** The document of a new, empty item (what the create editors start from). */
export const EMPTY_DOCS: EditDocs = {
  galgame: {
    title: '',
    titleZh: '',
    aliases: [],
    intro: '',
    releaseDate: null,
    prices: [],
    cover: '',
    images: [],
    nsfw: false,
    platforms: [],
    tags: [],
    producers: [],
    staff: [],
    characters: [],
    relations: [],
    downloads: [],
  },
  lightnovel: {
    name: '',
    nameZh: '',
    aliases: [],
    intro: '',
    cover: '',
    serialStatus: 'serialising',
    nsfw: false,
    staff: [],
    producers: [],
  },
  volume: {
    lightnovelId: 0,
    kind: 'main',
    number: 1,
    title: '',
    titleZh: '',
    intro: '',
    cover: '',
    isbn: '',
    releaseDate: null,
    pages: null,
    price: '',
  },
  person: { name: '', nameZh: '', aliases: [], description: '', image: '', gender: '', birthday: '' },
  character: { name: '', nameZh: '', aliases: [], description: '', image: '', gender: '', birthday: '' },
  producer: { name: '', nameZh: '', aliases: [], description: '', image: '', kind: 'company', website: '' },
  tag: { name: '', nameZh: '', category: 'content', description: '' },
};

/** One changed field: its value before and after (lists compared whole). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Canonical JSON of a value: object keys sorted, so equal values compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The fields of `type` whose values differ between `before` and `after`, in DOC_FIELDS order. */
export function diffDocs<T extends EditType>(type: T, before: EditDocs[T] | null, after: EditDocs[T]): FieldChange[] {
  const fields = DOC_FIELDS[type] as readonly string[];
  const b = (before ?? {}) as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return fields
    .filter((field) => canonicalJson(b[field] ?? null) !== canonicalJson(a[field] ?? null))
    .map((field) => ({ field, before: before ? (b[field] ?? null) : null, after: a[field] ?? null }));
}
