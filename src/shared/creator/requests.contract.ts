import { z } from 'zod';
import type { Pagination } from '../catalogue-model.ts';
import { as, endpoint, type Contract } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { bodyInt, decimalId, queryInt, safeText } from '../input-rules.ts';
import { EDIT_TYPES, REQUEST_STATUSES, type EditType, type RequestStatus } from './creator-model.ts';
import type { EditDoc } from './docs.ts';
import { EDIT_NOTE_MAX, type SaveOutcome } from './items.contract.ts';
import { REVIEW_REASON_MAX } from './items-model.ts';

/*
 * Update requests (decision 028): a member's own (/create/update-request/requests) and the review queue
 * of editors and admins (/create/update-request/audits). A request no longer pending answers 409
 * REQUEST_CLOSED to every review; an approval whose item changed since the request's base in the same
 * fields answers 409 EDIT_CONFLICT with `data: EditConflict`, and may be sent again with `overwrite`.
 */

export { REVIEW_REASON_MAX } from './items-model.ts';

/** A member named on a request or revision. */
export interface MemberRef {
  userId: number;
  name: string;
  avatar: string;
}

export interface RequestSummary {
  id: number;
  type: EditType;
  /** null for a proposed new item until it is approved. */
  itemId: number | null;
  /** The proposed title or name. */
  title: string;
  status: RequestStatus;
  /** The revision the edit was made against (0 for a new item). */
  baseRevision: number;
  /** The fields it changes against its base. */
  changes: string[];
  note: string;
  user: MemberRef | null;
  reviewer: MemberRef | null;
  /** The reviewer's reason (refusals and requests for changes). */
  reviewNote: string;
  reviewedAt: string | null;
  appliedRevision: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface RequestPage {
  items: RequestSummary[];
  pagination: Pagination;
}

/** Names of the things a document links to, by id, so a diff shows entries people can read. */
export interface LinkNames {
  tag: Record<string, string>;
  producer: Record<string, string>;
  person: Record<string, string>;
  character: Record<string, string>;
  galgame: Record<string, string>;
  lightnovel: Record<string, string>;
}

/** One changed field of a request: its value at the base, now, and as proposed. */
export interface RequestField {
  field: string;
  base: unknown;
  current: unknown;
  proposed: unknown;
  /** The item changed this field since the base, to a value other than the proposed one. */
  conflict: boolean;
}

export interface RequestDetail extends RequestSummary {
  /** The whole proposed document. */
  doc: EditDoc;
  fields: RequestField[];
  /** The item's revision now (0 for a proposed new item). */
  currentRevision: number;
  names: LinkNames;
  /** What the caller may do with it. */
  can: { review: boolean; withdraw: boolean; resubmit: boolean };
}

const reasonField = safeText({ kind: 'multiline', max: REVIEW_REASON_MAX, label: 'revision.label.reason', min: 1 });
const pageQuery = {
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: 50, label: 'validation.label.pageSize' }).default(20),
};
const statusFilter = z.enum(REQUEST_STATUSES, { error: messageRef('revision.error.status') }).optional();
const idParams = z.object({ id: decimalId() });

export const updateRequestsContract = {
  mine: endpoint({
    method: 'GET',
    path: '/creator/update-requests/mine',
    query: z.object({ ...pageQuery, status: statusFilter }),
    response: as<RequestPage>(),
    auth: 'required',
    summary: "The caller's own update requests, newest first",
  }),
  queue: endpoint({
    method: 'GET',
    path: '/creator/update-requests',
    query: z.object({
      ...pageQuery,
      status: statusFilter,
      type: z.enum(EDIT_TYPES, { error: messageRef('revision.error.type') }).optional(),
    }),
    response: as<RequestPage>(),
    auth: 'required',
    summary: 'Editors and above: the review queue (pending first by age), by status and type',
  }),
  detail: endpoint({
    method: 'GET',
    path: '/creator/update-requests/:id',
    params: idParams,
    response: as<RequestDetail>(),
    auth: 'required',
    summary: 'One request with its base, current and proposed values per field (its author or editors)',
  }),
  approve: endpoint({
    method: 'POST',
    path: '/creator/update-requests/:id/approve',
    params: idParams,
    body: z.object({
      overwrite: z
        .array(
          z
            .string({ error: messageRef('revision.error.overwrite') })
            .max(40, { error: messageRef('revision.error.overwrite') }),
          {
            error: messageRef('revision.error.overwrite'),
          },
        )
        .max(40, { error: messageRef('revision.error.overwrite') })
        .optional(),
    }),
    response: as<SaveOutcome>(),
    auth: 'required',
    summary: 'Editors: applies the request as a new revision; 409 EDIT_CONFLICT or REQUEST_CLOSED',
  }),
  reject: endpoint({
    method: 'POST',
    path: '/creator/update-requests/:id/reject',
    params: idParams,
    body: z.object({ reason: reasonField }),
    response: as<RequestSummary>(),
    auth: 'required',
    summary: 'Editors: refuses the request with a reason',
  }),
  requestChanges: endpoint({
    method: 'POST',
    path: '/creator/update-requests/:id/changes',
    params: idParams,
    body: z.object({ reason: reasonField }),
    response: as<RequestSummary>(),
    auth: 'required',
    summary: 'Editors: sends the request back to its author for changes',
  }),
  resubmit: endpoint({
    method: 'PUT',
    path: '/creator/update-requests/:id',
    params: idParams,
    body: z.object({
      doc: z.unknown(),
      baseRevision: bodyInt({ min: 1, max: 1_000_000, label: 'revision.label.number' }).optional(),
      note: safeText({ kind: 'multiline', max: EDIT_NOTE_MAX, label: 'revision.label.note' }).default(''),
    }),
    response: as<RequestSummary>(),
    auth: 'required',
    summary: 'Its author: edits a pending or sent-back request (back to pending)',
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/creator/update-requests/:id/withdraw',
    params: idParams,
    response: as<RequestSummary>(),
    auth: 'required',
    summary: 'Its author: takes back a pending or sent-back request',
  }),
} as const satisfies Contract;
