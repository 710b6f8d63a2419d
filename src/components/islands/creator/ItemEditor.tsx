import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { CHARACTER_ROLES, PLATFORMS, PRODUCER_ROLES, RELATIONS, STAFF_ROLES } from '../../../shared/catalogue-model.ts';
import type { EditType } from '../../../shared/creator/creator-model.ts';
import {
  canonicalJson,
  DOC_FIELDS,
  DOC_LIMITS,
  PRODUCER_KINDS,
  TAG_CATEGORIES,
} from '../../../shared/creator/docs-model.ts';
import type { DownloadDoc, EditDoc, EditDocs } from '../../../shared/creator/docs.ts';
import { EDIT_NOTE_MAX } from '../../../shared/creator/items-model.ts';
import type { EditConflict, ItemVolume, SaveOutcome } from '../../../shared/creator/items.contract.ts';
import type { LookupHit } from '../../../shared/creator/manage.contract.ts';
import { translateRef, type MessageKey } from '../../../shared/i18n/index.ts';
import {
  LIGHTNOVEL_PRODUCER_ROLES,
  LIGHTNOVEL_STAFF_ROLES,
  SERIAL_STATUSES,
  VOLUME_KINDS,
} from '../../../shared/lightnovel/lightnovel-model.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import {
  changedFields,
  checkDoc,
  editorPath,
  emptyDoc,
  linkedIds,
  loadDocSchemas,
  loadedDocSchemas,
  loadItemsApi,
  loadRequestsApi,
  loadManageApi,
  publicPath,
  readConflict,
  serverFieldErrors,
  shortValue,
  type FieldErrors,
} from '../../../stores/item-editor.ts';
import { toast } from '../../../stores/toast.ts';
import ImageUploader from '../media/ImageUploader.tsx';
import { DownloadList } from './DownloadList.tsx';
import { SeriesVolumes } from './SeriesVolumes.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import {
  Field,
  fieldLabelKey,
  hitName,
  inputClass,
  nameKey,
  Picker,
  smallInputClass,
  TextList,
  type NameBook,
} from './item-editor-fields.tsx';

type AnyDoc = Record<string, unknown>;
type Row = Record<string, unknown>;

/** A list of links: the entry type it points to, the id's key, and the extra columns of each row. */
interface LinkSpec {
  target: EditType;
  idKey: string;
  extras: Extra[];
}
type Extra =
  | {
      key: string;
      kind: 'choice';
      label: MessageKey;
      options: readonly (string | number)[];
      option: (v: string) => MessageKey;
    }
  | { key: string; kind: 'text'; label: MessageKey; max: number }
  | { key: string; kind: 'person'; label: MessageKey };

const spoilerOption = (v: string) => `itemEditor.spoiler.${v}` as MessageKey;
/** A link's role (or relation) chosen from `options`, labelled by the messages under `family`. */
const roleExtra = (options: readonly string[], family: string, key = 'role'): Extra => ({
  key,
  kind: 'choice',
  label: key === 'relation' ? 'itemEditor.link.relation' : 'itemEditor.link.role',
  options,
  option: (v) => `${family}.${v}` as MessageKey,
});
const noteExtra: Extra = { key: 'note', kind: 'text', label: 'itemEditor.link.note', max: DOC_LIMITS.note };
const link = (target: EditType, idKey: string, ...extras: Extra[]): LinkSpec => ({ target, idKey, extras });

const LINKS: Partial<Record<EditType, Record<string, LinkSpec>>> = {
  galgame: {
    tags: link('tag', 'tagId', {
      key: 'spoiler',
      kind: 'choice',
      label: 'itemEditor.link.spoiler',
      options: [0, 1, 2],
      option: spoilerOption,
    }),
    producers: link('producer', 'producerId', roleExtra(PRODUCER_ROLES, 'galgame.producerRole'), noteExtra),
    staff: link('person', 'personId', roleExtra(STAFF_ROLES, 'galgame.staffRole'), noteExtra),
    characters: link('character', 'characterId', roleExtra(CHARACTER_ROLES, 'galgame.characterRole'), {
      key: 'voicePersonId',
      kind: 'person',
      label: 'itemEditor.link.voice',
    }),
    relations: link('galgame', 'galgameId', roleExtra(RELATIONS, 'galgame.relation', 'relation')),
  },
  lightnovel: {
    staff: link('person', 'personId', roleExtra(LIGHTNOVEL_STAFF_ROLES, 'lightnovel.role')),
    producers: link('producer', 'producerId', roleExtra(LIGHTNOVEL_PRODUCER_ROLES, 'lightnovel.role')),
  },
};

/** The choices of single-choice fields, per type. */
function choicesOf(
  type: EditType,
  field: string,
): { values: readonly string[]; label: (v: string) => MessageKey } | null {
  if (field === 'serialStatus')
    return { values: SERIAL_STATUSES, label: (v) => `itemEditor.serial.${v}` as MessageKey };
  if (field === 'kind' && type === 'volume')
    return { values: VOLUME_KINDS, label: (v) => `itemEditor.volumeKind.${v}` as MessageKey };
  if (field === 'kind' && type === 'producer')
    return { values: PRODUCER_KINDS, label: (v) => `entity.kind.${v}` as MessageKey };
  if (field === 'category') return { values: TAG_CATEGORIES, label: (v) => `itemEditor.category.${v}` as MessageKey };
  return null;
}

const LINE_MAX: Record<string, number> = {
  title: DOC_LIMITS.title,
  titleZh: DOC_LIMITS.title,
  name: DOC_LIMITS.title,
  nameZh: DOC_LIMITS.title,
  isbn: DOC_LIMITS.isbn,
  price: DOC_LIMITS.price,
  gender: 20,
  birthday: DOC_LIMITS.short,
  website: 500,
};
const MEDIA_FIELDS = new Set(['cover', 'image', 'images']);

/**
 * Where a type's images go through the uploader (entities' images share the catalogue's kind). A member
 * who proposes an edit uploads as part of the request (any member may; editors see the images in review).
 */
const uploadType = (type: EditType, proposing: boolean) =>
  proposing ? 'update_request' : type === 'lightnovel' || type === 'volume' ? 'lightnovel_cover' : 'galgame_cover';

interface Props {
  type: EditType;
  /** The item to edit; null for a new one. */
  id: number | null;
  /** A new volume's series, when the page was opened from one. */
  seriesId?: number | null;
  /** The member's own update request to edit and resubmit (its proposed document is loaded). */
  requestId?: number | null;
  /** May the member start new entries (the creator group and above)? A series then offers a new volume. */
  mayCreate?: boolean;
}

type Notice = { kind: 'applied'; id: number } | { kind: 'requested' };

/**
 * The editor of one catalogue item or entity: every field of its document, checked with the shared
 * schema as one types (each field's problem beside it), a preview, the fields the save would change,
 * and the save itself (applied for editors, an update request for others; a conflict shows the
 * fields both sides changed).
 */
function ItemEditor({ type, id, seriesId = null, requestId = null, mayCreate = false }: Props) {
  const t = useT();
  const zh = useLocale() === 'zh-CN';
  const [doc, setDoc] = useState<AnyDoc | null>(() => {
    if (id !== null) return null;
    const start = emptyDoc(type) as unknown as AnyDoc;
    if (type === 'volume' && seriesId) start.lightnovelId = seriesId;
    return start;
  });
  const [base, setBase] = useState<AnyDoc | null>(null);
  const [saved, setSaved] = useState<string>(() => (doc ? canonicalJson(doc) : ''));
  const [revision, setRevision] = useState(0);
  const [title, setTitle] = useState('');
  const [canApply, setCanApply] = useState(false);
  const [pendingRequest, setPendingRequest] = useState<number | null>(null);
  const [volumes, setVolumes] = useState<ItemVolume[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [touched, setTouched] = useState(false);
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [names, setNames] = useState<NameBook>({});
  const [uploading, setUploading] = useState(0);
  const inFlight = useRef(false);
  const noteId = useId();

  const learnNames = (target: EditType, hits: LookupHit[]) =>
    setNames((book) => {
      const next = { ...book };
      for (const hit of hits) next[nameKey(target, hit.id)] = hit;
      return next;
    });

  const fetchNames = async (current: AnyDoc) => {
    const wanted = linkedIds(type, current as unknown as EditDoc);
    const { client, contract } = await loadManageApi();
    await Promise.all(
      Object.entries(wanted).map(async ([target, ids]) => {
        if (!ids?.length) return;
        const answer = await client.call(contract.names, {
          params: { type: target as EditType },
          query: { ids: ids.slice(0, 200).join(',') },
        });
        learnNames(target as EditType, answer.data);
      }),
    );
  };

  /**
   * The member's own request: its proposed document (what they edit and send again) and the document it
   * was made against (its changed fields' base values over it), so the changes shown are the request's.
   */
  const requestDoc = async (): Promise<{ doc: AnyDoc; base: AnyDoc } | null> => {
    if (requestId === null) return null;
    const { client, contract } = await loadRequestsApi();
    const answer = await client.call(contract.detail, { params: { id: requestId } });
    if (answer.data.type !== type || answer.data.itemId !== id) return null;
    const doc = answer.data.doc as unknown as AnyDoc;
    return { doc, base: { ...doc, ...Object.fromEntries(answer.data.fields.map((f) => [f.field, f.base])) } };
  };

  const load = async () => {
    if (id === null) {
      // A proposed new item sent back for changes: its document, to fix and send again.
      try {
        const proposed = (await requestDoc())?.doc;
        if (proposed) {
          setDoc(proposed);
          setSaved(canonicalJson(proposed));
          await fetchNames(proposed).catch(() => undefined);
        }
      } catch (failure) {
        setLoadError(failure instanceof Error ? failure.message : String(failure));
      }
      return;
    }
    setLoadError(null);
    try {
      const { client, contract } = await loadItemsApi();
      const answer = await client.call(contract.document, { params: { type, id } });
      const request = await requestDoc();
      const current = request?.doc ?? (answer.data.doc as unknown as AnyDoc);
      setDoc(current);
      setBase(request?.base ?? (answer.data.doc as unknown as AnyDoc));
      setSaved(canonicalJson(current));
      setRevision(answer.data.revision);
      setTitle(answer.data.title);
      setCanApply(answer.data.canApply);
      setPendingRequest(answer.data.pendingRequestId);
      setVolumes(answer.data.volumes);
      setConflict(null);
      setErrors({});
      setTouched(false);
      await fetchNames(current).catch(() => undefined);
    } catch (failure) {
      setLoadError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  useEffect(() => {
    // The schemas (zod) load with the editor, not with the page; until then no field shows a problem.
    void loadDocSchemas().catch(() => undefined);
    if (id !== null || requestId !== null) void load();
    else if (type === 'volume' && seriesId) void fetchNames(doc ?? {}).catch(() => undefined);
  }, []);

  const dirty = doc !== null && canonicalJson(doc) !== saved;
  // Leaving with unsaved changes asks first: closing the tab or reloading (the browser asks), and the
  // site's own navigation (our dialog, then on to where the link pointed).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t('itemEditor.leaveWarning');
    };
    let leaving = false;
    const onNavigate = (event: Event) => {
      if (leaving) return;
      const to = (event as Event & { to?: URL }).to;
      event.preventDefault();
      void confirmDialog(t('itemEditor.leaveWarning')).then(async (ok) => {
        if (!ok || !to) return;
        leaving = true;
        const { navigate } = await import('astro:transitions/client');
        await navigate(to.href);
      });
    };
    window.addEventListener('beforeunload', warn);
    document.addEventListener('astro:before-preparation', onNavigate);
    return () => {
      window.removeEventListener('beforeunload', warn);
      document.removeEventListener('astro:before-preparation', onNavigate);
    };
  }, [dirty]);

  /** Checks with the shared schemas once they have loaded (before that: no field problems shown). */
  const check = (next: AnyDoc) => {
    if (!loadedDocSchemas()) {
      setErrors({});
      return null;
    }
    const result = checkDoc(type, next);
    setErrors(result.ok ? {} : result.errors);
    return result;
  };
  const setField = (field: string, value: unknown) => {
    if (!doc) return;
    const next = { ...doc, [field]: value };
    setDoc(next);
    setNotice(null);
    if (touched) check(next);
  };

  const changes = useMemo(
    () =>
      doc
        ? changedFields(type, base as unknown as EditDocs[EditType] | null, doc as unknown as EditDocs[EditType])
        : [],
    [doc, base],
  );

  const focusFirstError = () =>
    requestAnimationFrame(() => {
      const element = document.querySelector<HTMLElement>(
        '[data-item-editor] [aria-invalid="true"], [data-item-editor] [data-field-error]',
      );
      element?.focus();
      element?.scrollIntoView({ block: 'center' });
    });

  const save = async (overwrite?: string[]) => {
    if (!doc || inFlight.current) return;
    setTouched(true);
    // A save waits for the schemas (loaded when the editor mounted) and checks as the server will.
    inFlight.current = true;
    let result: ReturnType<typeof checkDoc> | null;
    try {
      await loadDocSchemas();
      result = check(doc);
    } catch (failure) {
      inFlight.current = false;
      toast.error(failure instanceof Error ? failure.message : String(failure));
      return;
    }
    if (!result?.ok) {
      inFlight.current = false;
      toast.error(t('itemEditor.invalid'));
      focusFirstError();
      return;
    }
    setSaving(true);
    try {
      const { client, contract } = await loadItemsApi();
      let outcome: SaveOutcome;
      if (requestId !== null) {
        // Editing one's own request sends it again (back to pending), whatever the item.
        const requests = await loadRequestsApi();
        await requests.client.call(requests.contract.resubmit, {
          params: { id: requestId },
          // Without a base the request keeps its own: the document was made against it.
          body: { doc: result.doc, note },
        });
        outcome = { outcome: 'requested', requestId };
      } else if (id === null) {
        outcome = (await client.call(contract.create, { params: { type }, body: { doc: result.doc, note } })).data;
      } else {
        outcome = (
          await client.call(contract.save, {
            params: { type, id },
            body: { doc: result.doc, baseRevision: revision, note, ...(overwrite ? { overwrite } : {}) },
          })
        ).data;
      }
      setConflict(null);
      setSaved(canonicalJson(doc));
      setNote('');
      if (outcome.outcome === 'applied') {
        toast.success(t('itemEditor.applied'));
        setNotice({ kind: 'applied', id: outcome.id });
        if (id !== null) {
          setBase(doc);
          setRevision(outcome.revision);
          // New download rows got their ids: the next edit starts from the document as stored.
          if (type === 'galgame') await load();
        }
      } else {
        toast.success(t('itemEditor.requested'));
        setNotice({ kind: 'requested' });
        setPendingRequest(outcome.requestId);
      }
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'EDIT_CONFLICT') {
        setConflict(readConflict(failure.data));
      } else if (failure instanceof ApiError && failure.status === 400 && failure.issues.length > 0) {
        setErrors(serverFieldErrors(failure.issues));
        toast.error(t('itemEditor.invalid'));
        focusFirstError();
      } else {
        toast.error(failure instanceof Error ? failure.message : String(failure));
      }
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };

  const reloadCurrent = async () => {
    if (dirty && !(await confirmDialog(t('itemEditor.conflict.reloadConfirm')))) return;
    await load();
  };

  if (loadError) {
    return (
      <div role="alert" className="hk-card p-6 text-sm text-red-700 dark:text-red-400">
        <p>{t('itemEditor.loadFailed', { reason: loadError })}</p>
        <button type="button" className="hk-btn hk-btn-ghost mt-3" onClick={() => void load()}>
          {t('itemEditor.retry')}
        </button>
      </div>
    );
  }
  if (!doc) return <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('itemEditor.loading')}</p>;

  const fields = DOC_FIELDS[type] as readonly string[];
  const basic = fields.filter((f) => !MEDIA_FIELDS.has(f) && !LINKS[type]?.[f] && f !== 'downloads');
  const files = fields.filter((f) => f === 'downloads');
  const media = fields.filter((f) => MEDIA_FIELDS.has(f));
  const links = fields.filter((f) => LINKS[type]?.[f]);
  const label = (field: string) =>
    type === 'producer' && field === 'kind' ? t(fieldLabelKey('producerKind')) : t(fieldLabelKey(field));
  const isMember = id !== null && !canApply;
  // Editing one's own request always sends it again for review.
  const submitLabel =
    requestId !== null
      ? t('itemEditor.submit')
      : id === null
        ? t('itemEditor.create')
        : isMember
          ? t('itemEditor.submit')
          : t('itemEditor.save');

  const renderField = (field: string) => {
    const value = doc[field];
    const error = errors[field];
    const spec = LINKS[type]?.[field];
    if (spec)
      return (
        <LinkList
          key={field}
          field={field}
          label={label(field)}
          spec={spec}
          rows={(value as Row[]) ?? []}
          error={error}
          names={names}
          zh={zh}
          onLearn={learnNames}
          onChange={(rows) => setField(field, rows)}
        />
      );
    if (field === 'cover' || field === 'image' || field === 'images') {
      const multiple = field === 'images';
      const urls = multiple ? ((value as string[]) ?? []) : value ? [value as string] : [];
      return (
        <Field key={field} field={field} label={label(field)} error={error} group>
          {() => (
            <ImageUploader
              target={{ type: uploadType(type, isMember || requestId !== null), id: id ?? 'new' }}
              mode={multiple ? 'multiple' : 'single'}
              max={multiple ? DOC_LIMITS.images : 1}
              size={multiple ? 120 : 160}
              initial={urls}
              allowLink
              label={label(field)}
              onBusyChange={(busy) => setUploading((n) => Math.max(0, n + (busy ? 1 : -1)))}
              onChange={(next) => setField(field, multiple ? next : (next[0] ?? ''))}
            />
          )}
        </Field>
      );
    }
    const inputId = `item-${field}`;
    if (field === 'aliases')
      return (
        <Field key={field} field={field} label={label(field)} error={error} group>
          {({ errorId, invalid }) => (
            <TextList
              values={(value as string[]) ?? []}
              onChange={(next) => setField(field, next)}
              label={label(field)}
              max={DOC_LIMITS.aliases}
              itemMax={DOC_LIMITS.title}
              invalid={invalid}
              errorId={errorId}
            />
          )}
        </Field>
      );
    if (field === 'intro' || field === 'description')
      return (
        <Field key={field} field={field} label={label(field)} error={error} htmlFor={inputId}>
          {({ errorId, invalid }) => (
            <textarea
              id={inputId}
              className={`${inputClass} min-h-32`}
              value={value as string}
              maxLength={field === 'intro' ? DOC_LIMITS.intro : DOC_LIMITS.description}
              aria-invalid={invalid}
              aria-describedby={errorId}
              onChange={(event) => setField(field, event.target.value)}
            />
          )}
        </Field>
      );
    if (field === 'releaseDate')
      return (
        <Field key={field} field={field} label={label(field)} error={error} htmlFor={inputId}>
          {({ errorId, invalid }) => (
            <div className="flex flex-wrap items-center gap-3">
              <input
                id={inputId}
                type="date"
                className={`${inputClass} w-auto`}
                value={(value as string | null) ?? ''}
                disabled={value === null}
                aria-invalid={invalid}
                aria-describedby={errorId}
                onChange={(event) => setField(field, event.target.value || null)}
              />
              <label className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
                <input
                  type="checkbox"
                  checked={value === null}
                  onChange={(event) => setField(field, event.target.checked ? null : '')}
                />
                {t('itemEditor.tbd')}
              </label>
            </div>
          )}
        </Field>
      );
    if (field === 'nsfw')
      return (
        <Field key={field} field={field} label={label(field)} error={error} group>
          {() => (
            <label className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <input
                type="checkbox"
                checked={value === true}
                onChange={(event) => setField(field, event.target.checked)}
              />
              {t('itemEditor.yes')}
            </label>
          )}
        </Field>
      );
    if (field === 'platforms')
      return (
        <Field key={field} field={field} label={label(field)} error={error} group>
          {() => (
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {PLATFORMS.map((platform) => {
                const list = (value as string[]) ?? [];
                return (
                  <label
                    key={platform}
                    className="inline-flex items-center gap-1.5 text-sm text-zinc-700 dark:text-zinc-300"
                  >
                    <input
                      type="checkbox"
                      checked={list.includes(platform)}
                      onChange={(event) =>
                        setField(
                          field,
                          event.target.checked
                            ? PLATFORMS.filter((p) => p === platform || list.includes(p))
                            : list.filter((p) => p !== platform),
                        )
                      }
                    />
                    {t(`galgame.platform.${platform}` as MessageKey)}
                  </label>
                );
              })}
            </div>
          )}
        </Field>
      );
    if (field === 'downloads')
      return (
        <DownloadList
          key={field}
          rows={(value as DownloadDoc[]) ?? []}
          errors={errors}
          onChange={(rows) => setField(field, rows)}
        />
      );
    if (field === 'prices')
      return (
        <PriceList
          key={field}
          rows={(value as Row[]) ?? []}
          label={label(field)}
          error={error}
          onChange={(rows) => setField(field, rows)}
        />
      );
    if (field === 'lightnovelId')
      return (
        <Field key={field} field={field} label={label(field)} error={error} group>
          {() => (
            <SingleLink
              target="lightnovel"
              id={(value as number) || null}
              names={names}
              zh={zh}
              label={t('itemEditor.series.pick')}
              onLearn={learnNames}
              onChange={(next) => setField(field, next ?? 0)}
            />
          )}
        </Field>
      );
    if (field === 'number' || field === 'pages')
      return (
        <Field key={field} field={field} label={label(field)} error={error} htmlFor={inputId}>
          {({ errorId, invalid }) => (
            <input
              id={inputId}
              type="number"
              inputMode="numeric"
              className={`${inputClass} w-40`}
              value={value === null || value === undefined ? '' : String(value)}
              min={field === 'pages' ? 1 : 0}
              aria-invalid={invalid}
              aria-describedby={errorId}
              onChange={(event) => {
                const raw = event.target.value;
                setField(field, raw === '' ? (field === 'pages' ? null : raw) : Number(raw));
              }}
            />
          )}
        </Field>
      );
    const choices = choicesOf(type, field);
    if (choices)
      return (
        <Field key={field} field={field} label={label(field)} error={error} htmlFor={inputId}>
          {({ errorId, invalid }) => (
            <select
              id={inputId}
              className={`${inputClass} w-auto`}
              value={value as string}
              aria-invalid={invalid}
              aria-describedby={errorId}
              onChange={(event) => setField(field, event.target.value)}
            >
              {choices.values.map((v) => (
                <option key={v} value={v}>
                  {t(choices.label(v))}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    return (
      <Field key={field} field={field} label={label(field)} error={error} htmlFor={inputId}>
        {({ errorId, invalid }) => (
          <input
            id={inputId}
            className={inputClass}
            type={field === 'website' ? 'url' : 'text'}
            value={(value as string) ?? ''}
            maxLength={LINE_MAX[field] ?? 200}
            aria-invalid={invalid}
            aria-describedby={errorId}
            onChange={(event) => setField(field, event.target.value)}
          />
        )}
      </Field>
    );
  };

  const section = (heading: string, list: string[]) =>
    list.length > 0 && (
      <section className="hk-card flex flex-col gap-5 p-4 sm:p-6">
        <h2 className="text-base font-semibold text-zinc-900 dark:text-white">{heading}</h2>
        {list.map(renderField)}
      </section>
    );

  const page = notice?.kind === 'applied' ? publicPath(type, notice.id) : null;

  return (
    <div data-item-editor className="grid gap-6 desk:grid-cols-[minmax(0,1fr)_18rem]">
      <form
        noValidate
        className="flex min-w-0 flex-col gap-6"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {id !== null && title && (
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            {title} · r{revision}
          </p>
        )}
        {isMember && (
          <p className="rounded-lg bg-accent/10 px-4 py-3 text-sm text-zinc-800 dark:text-zinc-200">
            {t('itemEditor.memberNotice')}
          </p>
        )}
        {pendingRequest !== null && (
          <p className="rounded-lg bg-amber-100 px-4 py-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-200">
            {t('itemEditor.pendingRequest')}{' '}
            <a className="hk-link" href="/create/update-request/requests">
              {t('itemEditor.requestedLink')}
            </a>
          </p>
        )}
        {section(t('itemEditor.section.basic'), basic)}
        {section(t('itemEditor.section.media'), media)}
        {section(t('itemEditor.section.links'), links)}
        {type === 'lightnovel' && id !== null && title && (
          <SeriesVolumes seriesId={id} volumes={volumes} mayCreate={mayCreate} />
        )}
        {section(t('itemEditor.section.downloads'), files)}
        {errors._doc && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-field-error="_doc">
            {translateRef(t, errors._doc)}
          </p>
        )}
        {conflict && (
          <ConflictPanel
            conflict={conflict}
            canApply={canApply}
            busy={saving}
            onReload={() => void reloadCurrent()}
            onOverwrite={() => void save(conflict.fields.map((f) => f.field))}
          />
        )}
        <section className="hk-card flex flex-col gap-3 p-4 sm:p-6">
          <label htmlFor={noteId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('itemEditor.note.label')}
          </label>
          <textarea
            id={noteId}
            className={`${inputClass} min-h-20`}
            value={note}
            maxLength={EDIT_NOTE_MAX}
            placeholder={t('itemEditor.note.hint')}
            aria-invalid={Boolean(errors.note)}
            onChange={(event) => setNote(event.target.value)}
          />
          {errors.note && (
            <p className="text-sm text-red-700 dark:text-red-400" data-field-error="note">
              {translateRef(t, errors.note)}
            </p>
          )}
          {notice && (
            <div
              role="status"
              className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:bg-emerald-900/30 dark:text-emerald-200"
              data-save-outcome={notice.kind}
            >
              {notice.kind === 'applied' ? t('itemEditor.applied') : t('itemEditor.requested')}{' '}
              {notice.kind === 'requested' ? (
                <a className="hk-link" href="/create/update-request/requests">
                  {t('itemEditor.requestedLink')}
                </a>
              ) : (
                <>
                  {page && (
                    <a className="hk-link" href={page}>
                      {t('itemEditor.viewPage')}
                    </a>
                  )}{' '}
                  {id === null && (
                    <a className="hk-link" href={editorPath(type, notice.id)}>
                      {t('itemEditor.link.edit')}
                    </a>
                  )}
                </>
              )}
            </div>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="submit"
              className="hk-btn hk-btn-primary"
              disabled={saving || uploading > 0 || (id !== null && changes.length === 0)}
              aria-busy={saving}
            >
              {saving ? t('itemEditor.saving') : submitLabel}
            </button>
          </div>
        </section>
      </form>
      <aside className="flex min-w-0 flex-col gap-4 desk:sticky desk:top-20 desk:self-start">
        <Preview type={type} doc={doc} names={names} zh={zh} />
        <section className="hk-card p-4" aria-live="polite">
          <h2 className="mb-2 text-sm font-semibold text-zinc-900 dark:text-white">
            {t('itemEditor.section.changes')}
          </h2>
          {changes.length === 0 ? (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('itemEditor.noChanges')}</p>
          ) : (
            <ul className="flex flex-wrap gap-1.5" data-changed-fields>
              {changes.map((change) => (
                <li
                  key={change.field}
                  className="rounded-full bg-accent/10 px-2.5 py-0.5 text-xs text-zinc-800 dark:text-zinc-200"
                >
                  {label(change.field)}
                </li>
              ))}
            </ul>
          )}
        </section>
      </aside>
    </div>
  );
}

/** A list of links (staff, characters, tags…): each row names its entry and its extra columns; a picker adds one. */
function LinkList({
  field,
  label,
  spec,
  rows,
  error,
  names,
  zh,
  onLearn,
  onChange,
}: {
  field: string;
  label: string;
  spec: LinkSpec;
  rows: Row[];
  error: string | undefined;
  names: NameBook;
  zh: boolean;
  onLearn: (type: EditType, hits: LookupHit[]) => void;
  onChange: (rows: Row[]) => void;
}) {
  const t = useT();
  const setRow = (index: number, key: string, value: unknown) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  const fresh = (hit: LookupHit): Row => {
    const row: Row = { [spec.idKey]: hit.id };
    for (const extra of spec.extras) {
      row[extra.key] = extra.kind === 'choice' ? extra.options[0] : extra.kind === 'person' ? null : '';
    }
    return row;
  };
  return (
    <Field field={field} label={`${label} (${rows.length})`} error={error} group>
      {() => (
        <div className="flex flex-col gap-2">
          {rows.length > 0 && (
            <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg ring-1 ring-zinc-200 dark:divide-zinc-800 dark:ring-zinc-800">
              {rows.map((row, index) => {
                const id = row[spec.idKey] as number;
                const name = hitName(names[nameKey(spec.target, id)], id, zh);
                return (
                  <li key={`${id}-${index}`} className="flex flex-wrap items-center gap-2 px-3 py-2">
                    <span className="min-w-0 flex-1 basis-40 truncate text-sm text-zinc-900 dark:text-zinc-100">
                      {name}
                    </span>
                    {spec.extras.map((extra) =>
                      extra.kind === 'choice' ? (
                        <select
                          key={extra.key}
                          className={smallInputClass}
                          aria-label={`${name} · ${t(extra.label)}`}
                          value={String(row[extra.key])}
                          onChange={(event) =>
                            setRow(
                              index,
                              extra.key,
                              typeof extra.options[0] === 'number' ? Number(event.target.value) : event.target.value,
                            )
                          }
                        >
                          {extra.options.map((option) => (
                            <option key={option} value={String(option)}>
                              {t(extra.option(String(option)))}
                            </option>
                          ))}
                        </select>
                      ) : extra.kind === 'text' ? (
                        <input
                          key={extra.key}
                          className={`${smallInputClass} w-28`}
                          aria-label={`${name} · ${t(extra.label)}`}
                          placeholder={t(extra.label)}
                          maxLength={extra.max}
                          value={(row[extra.key] as string) ?? ''}
                          onChange={(event) => setRow(index, extra.key, event.target.value)}
                        />
                      ) : (
                        <div key={extra.key} className="w-44">
                          <SingleLink
                            target="person"
                            id={(row[extra.key] as number | null) ?? null}
                            names={names}
                            zh={zh}
                            label={`${name} · ${t(extra.label)}`}
                            compact
                            onLearn={onLearn}
                            onChange={(next) => setRow(index, extra.key, next)}
                          />
                        </div>
                      ),
                    )}
                    <button
                      type="button"
                      className="rounded-md px-2 py-1 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:hover:bg-zinc-800"
                      aria-label={t('itemEditor.removeNamed', { name })}
                      onClick={() => onChange(rows.filter((_, i) => i !== index))}
                    >
                      ×
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <Picker
            type={spec.target}
            label={`${label} · ${t('itemEditor.add')}`}
            // Staff and producers may name one entry once per role; the other lists once in all.
            exclude={
              spec.target === 'person' || spec.target === 'producer' ? [] : rows.map((row) => row[spec.idKey] as number)
            }
            onPick={(hit) => {
              onLearn(spec.target, [hit]);
              onChange([...rows, fresh(hit)]);
            }}
          />
        </div>
      )}
    </Field>
  );
}

/** One link (a volume's series, a character's voice): its name with Change and Remove, or a picker. */
function SingleLink({
  target,
  id,
  names,
  zh,
  label,
  compact = false,
  onLearn,
  onChange,
}: {
  target: EditType;
  id: number | null;
  names: NameBook;
  zh: boolean;
  label: string;
  compact?: boolean;
  onLearn: (type: EditType, hits: LookupHit[]) => void;
  onChange: (id: number | null) => void;
}) {
  const t = useT();
  if (id === null)
    return (
      <Picker
        type={target}
        label={label}
        compact={compact}
        onPick={(hit) => {
          onLearn(target, [hit]);
          onChange(hit.id);
        }}
      />
    );
  const name = hitName(names[nameKey(target, id)], id, zh);
  return (
    <span className="inline-flex max-w-full items-center gap-1 self-start rounded-full bg-zinc-100 py-1 pr-1 pl-3 text-sm text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
      <span className="truncate">{name}</span>
      <button
        type="button"
        className="rounded-full px-1.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-white"
        aria-label={t('itemEditor.removeNamed', { name })}
        onClick={() => onChange(null)}
      >
        ×
      </button>
    </span>
  );
}

/** Prices: edition, currency and amount per row. */
function PriceList({
  rows,
  label,
  error,
  onChange,
}: {
  rows: Row[];
  label: string;
  error: string | undefined;
  onChange: (rows: Row[]) => void;
}) {
  const t = useT();
  const setRow = (index: number, key: string, value: unknown) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  return (
    <Field field="prices" label={label} error={error} group>
      {() => (
        <div className="flex flex-col gap-2">
          {rows.map((row, index) => (
            <div key={index} className="flex flex-wrap items-center gap-2">
              <input
                className={`${smallInputClass} w-32`}
                placeholder={t('itemEditor.price.edition')}
                aria-label={`${t('itemEditor.price.edition')} ${index + 1}`}
                maxLength={DOC_LIMITS.short}
                value={(row.edition as string) ?? ''}
                onChange={(event) => setRow(index, 'edition', event.target.value)}
              />
              <input
                className={`${smallInputClass} w-20`}
                placeholder={t('itemEditor.price.currency')}
                aria-label={`${t('itemEditor.price.currency')} ${index + 1}`}
                maxLength={8}
                value={(row.currency as string) ?? ''}
                onChange={(event) => setRow(index, 'currency', event.target.value)}
              />
              <input
                className={`${smallInputClass} w-28`}
                type="number"
                min={0}
                step="any"
                placeholder={t('itemEditor.price.amount')}
                aria-label={`${t('itemEditor.price.amount')} ${index + 1}`}
                value={row.amount === '' || row.amount === undefined ? '' : String(row.amount)}
                onChange={(event) =>
                  setRow(index, 'amount', event.target.value === '' ? '' : Number(event.target.value))
                }
              />
              <button
                type="button"
                className="rounded-md px-2 py-1 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:hover:bg-zinc-800"
                aria-label={`${t('itemEditor.remove')} ${index + 1}`}
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="hk-btn hk-btn-ghost self-start"
            disabled={rows.length >= DOC_LIMITS.prices}
            onClick={() => onChange([...rows, { edition: '', currency: 'JPY', amount: 0 }])}
          >
            {t('itemEditor.add')}
          </button>
        </div>
      )}
    </Field>
  );
}

/** What the page will show: the title, the cover and a few facts. */
function Preview({ type, doc, names, zh }: { type: EditType; doc: AnyDoc; names: NameBook; zh: boolean }) {
  const t = useT();
  const main = (doc.title ?? doc.name ?? '') as string;
  const local = (doc.titleZh ?? doc.nameZh ?? '') as string;
  const heading = (zh && local) || main || local;
  const image = (doc.cover ?? doc.image ?? '') as string;
  const aliases = (doc.aliases as string[] | undefined) ?? [];
  const facts: [string, string][] = [];
  if (type === 'volume' && doc.lightnovelId)
    facts.push([
      t('itemEditor.preview.series'),
      hitName(names[nameKey('lightnovel', doc.lightnovelId as number)], doc.lightnovelId as number, zh),
    ]);
  if ('releaseDate' in doc)
    facts.push([t('itemEditor.preview.release'), (doc.releaseDate as string) || t('itemEditor.tbd')]);
  if (type === 'galgame' && (doc.platforms as string[]).length)
    facts.push([
      t('itemEditor.preview.platforms'),
      (doc.platforms as string[]).map((p) => t(`galgame.platform.${p}` as MessageKey)).join(' / '),
    ]);
  if (aliases.length) facts.push([t('itemEditor.preview.aliases'), aliases.join(' / ')]);
  return (
    <section className="hk-card overflow-hidden" aria-label={t('itemEditor.section.preview')} data-preview>
      {image ? (
        <img src={image} alt="" className="aspect-[3/4] max-h-72 w-full bg-zinc-100 object-cover dark:bg-zinc-800" />
      ) : null}
      <div className="flex flex-col gap-2 p-4">
        <p className="text-xs font-medium tracking-wide text-accent uppercase">{t('itemEditor.section.preview')}</p>
        <h2 className="text-lg font-semibold break-words text-zinc-900 dark:text-white">
          {heading || t('itemEditor.preview.untitled')}
        </h2>
        {local && main && heading !== main && <p className="text-sm text-zinc-600 dark:text-zinc-300">{main}</p>}
        {facts.length > 0 && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {facts.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-zinc-500 dark:text-zinc-400">{name}</dt>
                <dd className="break-words text-zinc-800 dark:text-zinc-200">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}

/** A 409 EDIT_CONFLICT: the fields both sides changed (mine, current, base); reload, or (editors) overwrite. */
function ConflictPanel({
  conflict,
  canApply,
  busy,
  onReload,
  onOverwrite,
}: {
  conflict: EditConflict;
  canApply: boolean;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  const t = useT();
  return (
    <section
      role="alert"
      className="rounded-2xl bg-amber-50 p-4 ring-1 ring-amber-300 sm:p-6 dark:bg-amber-900/20 dark:ring-amber-700"
      data-conflict
    >
      <h2 className="text-base font-semibold text-amber-900 dark:text-amber-200">{t('itemEditor.conflict.title')}</h2>
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">
        {t('itemEditor.conflict.body', { revision: conflict.currentRevision })}
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-zinc-600 dark:text-zinc-300">
            <tr>
              <th className="py-1 pr-3 font-medium">{t('itemEditor.conflict.field')}</th>
              <th className="py-1 pr-3 font-medium">{t('itemEditor.conflict.yours')}</th>
              <th className="py-1 pr-3 font-medium">{t('itemEditor.conflict.current')}</th>
              <th className="py-1 font-medium">{t('itemEditor.conflict.base')}</th>
            </tr>
          </thead>
          <tbody className="text-zinc-800 dark:text-zinc-200">
            {conflict.fields.map((f) => (
              <tr key={f.field} className="border-t border-amber-200 align-top dark:border-amber-800">
                <td className="py-1 pr-3">{t(fieldLabelKey(f.field))}</td>
                <td className="py-1 pr-3 break-all">{shortValue(f.proposed) || t('itemEditor.empty')}</td>
                <td className="py-1 pr-3 break-all">{shortValue(f.current) || t('itemEditor.empty')}</td>
                <td className="py-1 break-all">{shortValue(f.base) || t('itemEditor.empty')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="hk-btn hk-btn-ghost" onClick={onReload} disabled={busy}>
          {t('itemEditor.conflict.reload')}
        </button>
        {canApply && (
          <button type="button" className="hk-btn hk-btn-primary" onClick={onOverwrite} disabled={busy}>
            {t('itemEditor.conflict.overwrite')}
          </button>
        )}
      </div>
    </section>
  );
}

export default withLocale(ItemEditor);
