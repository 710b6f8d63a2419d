import type { EditType } from '../shared/creator/creator-model.ts';
import type { DOC_SCHEMAS, EditDoc, EditDocs } from '../shared/creator/docs.ts';
import { EMPTY_DOCS, diffDocs, type FieldChange } from '../shared/creator/docs-model.ts';
import type { EditConflict, SaveOutcome } from '../shared/creator/items.contract.ts';

export { editorPath, publicPath } from '../shared/creator/editor-paths.ts';

/**
 * The item and entity editors' logic, without a browser: checking a document with the same schema the
 * server runs (each field's first problem, as a message reference), what changed against the version
 * opened, the server's field problems and conflicts, and which ids a document links to (so the editor
 * can show their names). The schemas (zod) load with the first `loadDocSchemas()`, not with the page.
 */

/** The first problem of each top-level field, as a message reference (translateRef shows it). */
export type FieldErrors = Partial<Record<string, string>>;

export type CheckResult<T extends EditType> = { ok: true; doc: EditDocs[T] } | { ok: false; errors: FieldErrors };

export type DocSchemas = typeof DOC_SCHEMAS;

let schemas: DocSchemas | null = null;
let schemasLoading: Promise<DocSchemas> | null = null;

/** The documents' schemas, loaded once (an editor starts this when it mounts; a save awaits it). */
export function loadDocSchemas(): Promise<DocSchemas> {
  schemasLoading ??= import('../shared/creator/docs.ts').then(
    (module) => (schemas = module.DOC_SCHEMAS),
    (failure: unknown) => {
      schemasLoading = null;
      throw failure;
    },
  );
  return schemasLoading;
}

/** The schemas when they have loaded, else null (then an editor shows no field problems yet). */
export function loadedDocSchemas(): DocSchemas | null {
  return schemas;
}

/** Checks a document with the loaded schemas (`loadDocSchemas()` first: without them this throws). */
export function checkDoc<T extends EditType>(type: T, doc: unknown): CheckResult<T> {
  if (!schemas) throw new Error('The document schemas have not loaded: await loadDocSchemas() first.');
  const result = schemas[type].safeParse(doc);
  if (result.success) return { ok: true, doc: result.data as EditDocs[T] };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '_doc';
    errors[field] ??= issue.message;
    // The whole path too (downloads.0.links.1.url), so a list's own control can be marked.
    if (issue.path.length > 1) errors[issue.path.map(String).join('.')] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * The server's field problems of a 400 answer, by top-level document field (and by whole path for a
 * list's own controls): paths come as `doc.title`, `doc.staff.2.role` or `title`; `note` stays `note`.
 */
export function serverFieldErrors(issues: readonly { path?: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const parts = (issue.path ?? '').split('.').filter(Boolean);
    if (parts[0] === 'doc') parts.shift();
    const field = parts[0] ?? '_doc';
    errors[field] ??= issue.message;
    if (parts.length > 1) errors[parts.join('.')] ??= issue.message;
  }
  return errors;
}

/** The fields an edit changes against the version it started from (every filled field of a new item). */
export function changedFields<T extends EditType>(type: T, base: EditDocs[T] | null, doc: EditDocs[T]): FieldChange[] {
  return diffDocs(type, base ?? (EMPTY_DOCS[type] as EditDocs[T]), doc);
}

/** A new item's starting document (a copy: the editor changes it). */
export function emptyDoc<T extends EditType>(type: T): EditDocs[T] {
  return structuredClone(EMPTY_DOCS[type]) as EditDocs[T];
}

/** Reads a 409 EDIT_CONFLICT answer's data, or null when it is not one. */
export function readConflict(data: unknown): EditConflict | null {
  if (!data || typeof data !== 'object') return null;
  const value = data as Partial<EditConflict>;
  if (typeof value.currentRevision !== 'number' || !Array.isArray(value.fields)) return null;
  return { currentRevision: value.currentRevision, fields: value.fields };
}

/** What to tell after a save: applied (with the item's id) or sent for review. */
export function outcomeNotice(outcome: SaveOutcome): { kind: 'applied'; id: number } | { kind: 'requested' } {
  return outcome.outcome === 'applied' ? { kind: 'applied', id: outcome.id } : { kind: 'requested' };
}

/** The ids a document links to, per type, so their names can be fetched in one call per type. */
export function linkedIds(type: EditType, doc: EditDoc): Partial<Record<EditType, number[]>> {
  const out: Partial<Record<EditType, number[]>> = {};
  const add = (target: EditType, id: number | null | undefined) => {
    if (!id) return;
    const list = (out[target] ??= []);
    if (!list.includes(id)) list.push(id);
  };
  if (type === 'galgame') {
    const d = doc as EditDocs['galgame'];
    d.tags.forEach((t) => add('tag', t.tagId));
    d.producers.forEach((p) => add('producer', p.producerId));
    d.staff.forEach((s) => add('person', s.personId));
    d.characters.forEach((c) => {
      add('character', c.characterId);
      add('person', c.voicePersonId);
    });
    d.relations.forEach((r) => add('galgame', r.galgameId));
  } else if (type === 'lightnovel') {
    const d = doc as EditDocs['lightnovel'];
    d.staff.forEach((s) => add('person', s.personId));
    d.producers.forEach((p) => add('producer', p.producerId));
  } else if (type === 'volume') {
    add('lightnovel', (doc as EditDocs['volume']).lightnovelId);
  }
  return out;
}

/** A value as the conflict table and the changes list show it: short, one line. */
export function shortValue(value: unknown, max = 80): string {
  if (value === null || value === undefined || value === '') return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The API client with the manage contract (lists, look-ups, names), loaded with the first call. */
export async function loadManageApi() {
  const [{ api }, { creatorManageContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/creator/manage.contract.ts'),
  ]);
  return { client: api, contract: creatorManageContract };
}

/** The API client with the editors' contract (documents, saves, creations), loaded with the first call. */
export async function loadItemsApi() {
  const [{ api }, { creatorItemsContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/creator/items.contract.ts'),
  ]);
  return { client: api, contract: creatorItemsContract };
}

/** The API client with the update requests' contract (a member's own request, to edit and resubmit). */
export async function loadRequestsApi() {
  const [{ api }, { updateRequestsContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/creator/requests.contract.ts'),
  ]);
  return { client: api, contract: updateRequestsContract };
}
