import type { AstroGlobal } from 'astro';
import type { UserGroup } from '../../shared/auth-model.ts';
import { ENTITY_EDIT_TYPES, type EditType } from '../../shared/creator/creator-model.ts';
import { GALGAME_STATUSES, type GalgameStatus } from '../../shared/catalogue-model.ts';
import { isRowId } from '../../shared/input-rules.ts';
import { creatorGate } from './creator-gate.ts';

/** What the editor and manage pages need once the request may see them. */
export type PageGate<T> = { response: Response } | { response: null; page: T };

export interface EditorPageProps {
  type: EditType;
  id: number | null;
  seriesId: number | null;
  /** The member's own update request to edit and resubmit (`?request=`), e.g. one sent back for changes. */
  requestId: number | null;
  group: UserGroup;
  allowed: boolean;
}

/**
 * /create/item/… and /create/entity/…: without `?id=` a new entry (the creator group and above); with
 * `?id=` the entry's editor, open to every member (their saves become update requests); a malformed
 * id is a 404 and a visitor is sent to log in. The API checks every call again.
 */
export function editorPageGate(Astro: AstroGlobal, type: EditType): PageGate<EditorPageProps> {
  const rawId = Astro.url.searchParams.get('id');
  if (rawId !== null && !isRowId(rawId)) return { response: new Response(null, { status: 404 }) };
  const id = rawId === null ? null : Number(rawId);
  const rawSeries = Astro.url.searchParams.get('series');
  const seriesId = type === 'volume' && rawSeries !== null && isRowId(rawSeries) ? Number(rawSeries) : null;
  const rawRequest = Astro.url.searchParams.get('request');
  if (rawRequest !== null && !isRowId(rawRequest)) return { response: new Response(null, { status: 404 }) };
  const requestId = rawRequest === null ? null : Number(rawRequest);
  const gate = creatorGate(Astro, { permissionNeeded: id === null });
  if (gate.redirect) return { response: gate.redirect };
  return {
    response: null,
    page: { type, id, seriesId, requestId, group: gate.viewer.hikariUserGroup, allowed: gate.allowed },
  };
}

export interface ManagePageProps {
  type: EditType;
  keyword: string;
  status: GalgameStatus | null;
  page: number;
  group: UserGroup;
  allowed: boolean;
}

/**
 * /create/item/manage/{type} (every member: spec §2.1 asks only for a login) and
 * /create/entity/manage/{type} (the creator group and above), with the filters from the address.
 */
export function managePageGate(Astro: AstroGlobal, type: EditType): PageGate<ManagePageProps> {
  const entity = (ENTITY_EDIT_TYPES as readonly string[]).includes(type);
  const gate = creatorGate(Astro, { permissionNeeded: entity });
  if (gate.redirect) return { response: gate.redirect };
  const params = Astro.url.searchParams;
  return {
    response: null,
    page: {
      type,
      keyword: (params.get('keyword') ?? '').slice(0, 100),
      status: GALGAME_STATUSES.find((s) => s === params.get('status')) ?? null,
      page: Math.min(10_000, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)),
      group: gate.viewer.hikariUserGroup,
      allowed: gate.allowed,
    },
  };
}
