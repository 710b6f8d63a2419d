import { z } from 'zod';
import { IMAGE_URL_MAX } from '../auth-model.ts';
import {
  CHARACTER_ROLES,
  DOWNLOAD_LANGUAGES,
  PLATFORMS,
  PRODUCER_ROLES,
  RELATIONS,
  STAFF_ROLES,
  TRANSLATION_TYPES,
} from '../catalogue-model.ts';
import { messageRef, type MessageKey } from '../i18n/index.ts';
import { bodyId, bodyInt, safeText } from '../input-rules.ts';
import {
  LIGHTNOVEL_PRODUCER_ROLES,
  LIGHTNOVEL_STAFF_ROLES,
  SERIAL_STATUSES,
  VOLUME_KINDS,
} from '../lightnovel/lightnovel-model.ts';
import type { EditType } from './creator-model.ts';
import { DOC_LIMITS, PRODUCER_KINDS, TAG_CATEGORIES } from './docs-model.ts';

/**
 * The editable document of each catalogue item and entity: every field a person edits, as the
 * editors send it, as a revision stores it, and as an update request proposes it. Counters, views,
 * ratings, the moderation status and uploaded files (EPUBs) are not part of it: they change through
 * their own calls. A game's downloads are (files and their links, each with the id of its row, or null
 * for a new one), so a changed link is reviewed and can be restored like any other field. A diff between two documents is field by field (`DOC_FIELDS`), lists compared whole.
 */

export {
  canonicalJson,
  diffDocs,
  DOC_FIELDS,
  DOC_LIMITS,
  EMPTY_DOCS,
  PRODUCER_KINDS,
  TAG_CATEGORIES,
  type FieldChange,
  type ProducerKind,
  type TagCategory,
} from './docs-model.ts';

const fieldLabel = (field: string) => `revision.field.${field}` as MessageKey;

const line = (field: string, max: number, min = 0) => safeText({ max, label: fieldLabel(field), min });
const multiline = (field: string, max: number) => safeText({ kind: 'multiline', max, label: fieldLabel(field) });

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /[\s"'<>\\]/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** An image or web address: '' or http(s) (the uploader's own images, or a link pasted into it). */
const url = (field: string) =>
  safeText({ max: IMAGE_URL_MAX, label: fieldLabel(field) }).refine((value) => value === '' || isHttpUrl(value), {
    error: messageRef('revision.error.url', { label: fieldLabel(field) }),
  });

function list<T extends z.ZodType>(field: string, item: T, max: number) {
  return z
    .array(item, { error: messageRef('revision.error.list', { label: fieldLabel(field) }) })
    .max(max, { error: messageRef('revision.error.listTooLong', { label: fieldLabel(field), max }) });
}

const aliases = list('aliases', line('aliases', DOC_LIMITS.title, 1), DOC_LIMITS.aliases);

/** YYYY-MM-DD (a real day) or null (not announced, TBD). */
const day = (field: string) =>
  z
    .string({ error: messageRef('revision.error.date', { label: fieldLabel(field) }) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messageRef('revision.error.date', { label: fieldLabel(field) }) })
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      {
        error: messageRef('revision.error.date', { label: fieldLabel(field) }),
      },
    )
    .nullable();

const choice = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: messageRef('revision.error.choice', { label: fieldLabel(field) }) });

const flag = (field: string) =>
  z.boolean({ error: messageRef('revision.error.boolean', { label: fieldLabel(field) }) });

/** One entry of a list (a tag, a staff member, a download…): an object of exactly its fields. */
const entry = <S extends z.ZodRawShape>(field: string, shape: S) =>
  z.strictObject(shape, { error: messageRef('revision.error.entry', { label: fieldLabel(field) }) });

/** An item's list of links may not name the same thing twice. */
function uniqueBy<T>(key: (item: T) => string, field: string) {
  return (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item);
      if (seen.has(k)) {
        ctx.addIssue({ code: 'custom', message: messageRef('revision.error.duplicate', { label: fieldLabel(field) }) });
        return;
      }
      seen.add(k);
    }
  };
}

/** Ids in a list of rows may not repeat (null: a new row). */
function uniqueIds(field: string) {
  const unique = uniqueBy((row: { id: number | null }) => String(row.id), field);
  return (rows: { id: number | null }[], ctx: z.RefinementCtx) =>
    unique(
      rows.filter((row) => row.id !== null),
      ctx,
    );
}

/** A download link: a web address (cloud drives and the like), its label and password. */
const downloadLink = entry('links', {
  id: bodyId(fieldLabel('downloads')).nullable(),
  label: line('linkLabel', DOC_LIMITS.short),
  url: url('linkUrl').refine((value) => value !== '', {
    error: messageRef('revision.error.url', { label: fieldLabel('linkUrl') }),
  }),
  password: line('linkPassword', DOC_LIMITS.short),
});

/** One downloadable file of a game (a language, platform and translation) with its links. */
const download = entry('downloads', {
  id: bodyId(fieldLabel('downloads')).nullable(),
  language: choice('downloadLanguage', DOWNLOAD_LANGUAGES),
  platform: choice('downloadPlatform', PLATFORMS),
  translationType: choice('translationType', TRANSLATION_TYPES),
  translationGroup: line('translationGroup', DOC_LIMITS.short),
  sizeBytes: z
    .number({ error: messageRef('revision.error.size') })
    .int({ error: messageRef('revision.error.size') })
    .min(0, { error: messageRef('revision.error.size') })
    .max(DOC_LIMITS.sizeBytes, { error: messageRef('revision.error.size') })
    .nullable(),
  note: line('downloadNote', DOC_LIMITS.note),
  // A file may be listed before it has links (or after its last dead link was removed).
  links: list('links', downloadLink, DOC_LIMITS.links).superRefine(uniqueIds('links')),
});

export const galgameDocSchema = z.strictObject(
  {
    title: line('title', DOC_LIMITS.title, 1),
    titleZh: line('titleZh', DOC_LIMITS.title),
    aliases,
    intro: multiline('intro', DOC_LIMITS.intro),
    releaseDate: day('releaseDate'),
    prices: list(
      'prices',
      entry('prices', {
        edition: line('priceEdition', DOC_LIMITS.short),
        currency: line('priceCurrency', 8, 1),
        amount: z
          .number({ error: messageRef('revision.error.amount') })
          .min(0, { error: messageRef('revision.error.amount') })
          .max(10_000_000, { error: messageRef('revision.error.amount') }),
      }),
      DOC_LIMITS.prices,
    ),
    cover: url('cover'),
    images: list(
      'images',
      url('images').refine((v) => v !== '', {
        error: messageRef('revision.error.url', { label: fieldLabel('images') }),
      }),
      DOC_LIMITS.images,
    ),
    nsfw: flag('nsfw'),
    platforms: list('platforms', choice('platforms', PLATFORMS), PLATFORMS.length).superRefine(
      uniqueBy((p: string) => p, 'platforms'),
    ),
    tags: list(
      'tags',
      entry('tags', {
        tagId: bodyId(fieldLabel('tags')),
        spoiler: bodyInt({ min: 0, max: 2, label: fieldLabel('spoiler') }),
      }),
      DOC_LIMITS.tags,
    ).superRefine(uniqueBy((t: { tagId: number }) => String(t.tagId), 'tags')),
    producers: list(
      'producers',
      entry('producers', {
        producerId: bodyId(fieldLabel('producers')),
        role: choice('producers', PRODUCER_ROLES),
        note: line('note', DOC_LIMITS.note),
      }),
      DOC_LIMITS.producers,
    ).superRefine(uniqueBy((p: { producerId: number; role: string }) => `${p.producerId}:${p.role}`, 'producers')),
    staff: list(
      'staff',
      entry('staff', {
        personId: bodyId(fieldLabel('staff')),
        role: choice('staff', STAFF_ROLES),
        note: line('note', DOC_LIMITS.note),
      }),
      DOC_LIMITS.staff,
    ).superRefine(uniqueBy((s: { personId: number; role: string }) => `${s.personId}:${s.role}`, 'staff')),
    characters: list(
      'characters',
      entry('characters', {
        characterId: bodyId(fieldLabel('characters')),
        role: choice('characters', CHARACTER_ROLES),
        voicePersonId: bodyId(fieldLabel('voice')).nullable(),
      }),
      DOC_LIMITS.characters,
    ).superRefine(uniqueBy((c: { characterId: number }) => String(c.characterId), 'characters')),
    relations: list(
      'relations',
      entry('relations', { galgameId: bodyId(fieldLabel('relations')), relation: choice('relations', RELATIONS) }),
      DOC_LIMITS.relations,
    ).superRefine(uniqueBy((r: { galgameId: number }) => String(r.galgameId), 'relations')),
    downloads: list('downloads', download, DOC_LIMITS.downloads)
      .superRefine(uniqueIds('downloads'))
      .superRefine((downloads, ctx) =>
        uniqueIds('links')(
          downloads.flatMap((d) => d.links),
          ctx,
        ),
      ),
  },
  { error: messageRef('revision.error.unknownField') },
);
export type GalgameDoc = z.infer<typeof galgameDocSchema>;
export type DownloadDoc = GalgameDoc['downloads'][number];

export const lightnovelDocSchema = z.strictObject(
  {
    name: line('name', DOC_LIMITS.title, 1),
    nameZh: line('nameZh', DOC_LIMITS.title),
    aliases,
    intro: multiline('intro', DOC_LIMITS.intro),
    cover: url('cover'),
    serialStatus: choice('serialStatus', SERIAL_STATUSES),
    nsfw: flag('nsfw'),
    staff: list(
      'staff',
      entry('staff', { personId: bodyId(fieldLabel('staff')), role: choice('staff', LIGHTNOVEL_STAFF_ROLES) }),
      DOC_LIMITS.staff,
    ).superRefine(uniqueBy((s: { personId: number; role: string }) => `${s.personId}:${s.role}`, 'staff')),
    producers: list(
      'producers',
      entry('producers', {
        producerId: bodyId(fieldLabel('producers')),
        role: choice('producers', LIGHTNOVEL_PRODUCER_ROLES),
      }),
      DOC_LIMITS.producers,
    ).superRefine(uniqueBy((p: { producerId: number; role: string }) => `${p.producerId}:${p.role}`, 'producers')),
  },
  { error: messageRef('revision.error.unknownField') },
);
export type LightnovelDoc = z.infer<typeof lightnovelDocSchema>;

export const volumeDocSchema = z.strictObject(
  {
    lightnovelId: bodyId(fieldLabel('lightnovelId')),
    kind: choice('kind', VOLUME_KINDS),
    number: bodyInt({ min: 0, max: 9999, label: fieldLabel('number') }),
    title: line('title', DOC_LIMITS.title),
    titleZh: line('titleZh', DOC_LIMITS.title),
    intro: multiline('intro', DOC_LIMITS.intro),
    cover: url('cover'),
    isbn: line('isbn', DOC_LIMITS.isbn).refine((v) => v === '' || /^[0-9][0-9-]{8,15}[0-9Xx]$/.test(v), {
      error: messageRef('revision.error.isbn'),
    }),
    releaseDate: day('releaseDate'),
    pages: bodyInt({ min: 1, max: 100_000, label: fieldLabel('pages') }).nullable(),
    price: line('price', DOC_LIMITS.price),
  },
  { error: messageRef('revision.error.unknownField') },
);
export type VolumeDoc = z.infer<typeof volumeDocSchema>;

const entityFields = {
  name: line('name', DOC_LIMITS.title, 1),
  nameZh: line('nameZh', DOC_LIMITS.title),
  aliases,
  description: multiline('description', DOC_LIMITS.description),
  image: url('image'),
};

export const personDocSchema = z.strictObject(
  { ...entityFields, gender: line('gender', 20), birthday: line('birthday', DOC_LIMITS.short) },
  { error: messageRef('revision.error.unknownField') },
);
export type PersonDoc = z.infer<typeof personDocSchema>;

/** Characters have the same fields as persons. */
export const characterDocSchema = personDocSchema;
export type CharacterDoc = PersonDoc;

export const producerDocSchema = z.strictObject(
  { ...entityFields, kind: choice('producerKind', PRODUCER_KINDS), website: url('website') },
  { error: messageRef('revision.error.unknownField') },
);
export type ProducerDoc = z.infer<typeof producerDocSchema>;

export const tagDocSchema = z.strictObject(
  {
    name: line('name', DOC_LIMITS.tagName, 1),
    nameZh: line('nameZh', DOC_LIMITS.tagName),
    category: choice('category', TAG_CATEGORIES),
    description: multiline('description', DOC_LIMITS.description),
  },
  { error: messageRef('revision.error.unknownField') },
);
export type TagDoc = z.infer<typeof tagDocSchema>;

export interface EditDocs {
  galgame: GalgameDoc;
  lightnovel: LightnovelDoc;
  volume: VolumeDoc;
  person: PersonDoc;
  character: CharacterDoc;
  producer: ProducerDoc;
  tag: TagDoc;
}
export type EditDoc = EditDocs[EditType];

export const DOC_SCHEMAS = {
  galgame: galgameDocSchema,
  lightnovel: lightnovelDocSchema,
  volume: volumeDocSchema,
  person: personDocSchema,
  character: characterDocSchema,
  producer: producerDocSchema,
  tag: tagDocSchema,
} as const satisfies Record<EditType, z.ZodType>;
