import { z } from 'zod';
import type { UserGroup, UserStatus } from '../auth-model.ts';
import type { Pagination } from '../catalogue-model.ts';
import { as, endpoint, type Contract } from '../contract.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../creator/creator-model.ts';
import { messageRef } from '../i18n/index.ts';
import { decimalId, queryInt, safeText } from '../input-rules.ts';
import type { ReportReason } from '../reactions/reactions-model.ts';

/*
 * The API of moderation (issue 18 §6): the report queue, hiding, restoring and deleting content, bans,
 * the audit log and roles. Every call needs a login; the services check the caller's group (editors
 * and above for reports and content, admins for bans and the log, the superAdmin for roles).
 */

export {
  ASSIGNABLE_GROUPS,
  BAN_CUSTOM_MAX_DAYS,
  BAN_PERIOD_DAYS,
  BAN_PERIODS,
  groupRank,
  MEMBER_SEARCH_MAX,
  MODERATED_TYPES,
  MODERATION_PAGE_MAX,
  MODERATION_REASON_MAX,
  QUEUE_KINDS,
  QUEUE_TYPES,
  RESOLVE_ACTIONS,
  type AssignableGroup,
  type BanPeriod,
  type ModeratedType,
  type QueueKind,
  type QueueType,
  type ResolveAction,
} from './moderation-model.ts';
import {
  ASSIGNABLE_GROUPS,
  BAN_PERIODS,
  MODERATED_TYPES,
  MODERATION_PAGE_MAX,
  MODERATION_REASON_MAX,
  QUEUE_KINDS,
  QUEUE_TYPES,
  RESOLVE_ACTIONS,
  type ModeratedType,
} from './moderation-model.ts';

export type ModeratedStatus = 'draft' | 'published' | 'visible' | 'hidden' | 'deleted';

export interface PersonBrief {
  userId: number;
  name: string;
  avatar: string;
}

/** One reported item with its open reports gathered. */
export interface ReportedItem {
  targetType: ModeratedType;
  targetId: number;
  /** The title, or a comment's first words. */
  title: string;
  /** Where it is shown, when it has a page. */
  url: string | null;
  status: ModeratedStatus;
  author: PersonBrief | null;
  count: number;
  reasons: { reason: ReportReason; count: number }[];
  /** The newest texts reporters wrote (at most five). */
  notes: { text: string; reporter: string }[];
  firstAt: string;
  lastAt: string;
}

/** One reported download link with its reports gathered. */
export interface ReportedLink {
  targetType: 'link';
  targetId: number;
  galgameId: number;
  galgameName: string;
  label: string;
  url: string;
  count: number;
  /** What reporters wrote (the newest five non-empty). */
  notes: string[];
  lastAt: string;
}

export interface ReportQueue<T> {
  items: T[];
  pagination: Pagination;
}

/** What a content action answers: the item's state after it. */
export interface ContentState {
  targetType: ModeratedType;
  targetId: number;
  status: ModeratedStatus;
}

/** A member as the moderation pages show them. */
export interface MemberView extends PersonBrief {
  group: UserGroup;
  status: UserStatus;
  banReason: string;
  /** Null while active or banned for good. */
  bannedUntil: string | null;
  createdAt: string;
  /** May the caller ban or unban them (admins, over members below them)? */
  canBan: boolean;
  /** May the caller change their group (the superAdmin, never of a superAdmin)? */
  canSetGroup: boolean;
}

export interface AuditEntryView {
  id: number;
  action: AuditAction;
  actor: PersonBrief | null;
  targetType: string;
  targetId: string;
  /** The member a user action was about, when the target is a member. */
  targetUser: PersonBrief | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

export interface AuditPage {
  items: AuditEntryView[];
  pagination: Pagination;
}

const reason = (required: boolean) =>
  safeText({
    kind: 'multiline',
    max: MODERATION_REASON_MAX,
    label: 'moderation.label.reason',
    ...(required ? { min: 1 } : {}),
  });

const pageQuery = {
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: MODERATION_PAGE_MAX, label: 'validation.label.pageSize' }).default(20),
};

const contentParams = z.object({
  type: z.enum(MODERATED_TYPES, { error: messageRef('moderation.error.type') }),
  id: decimalId(),
});
const queueParams = z.object({
  type: z.enum(QUEUE_TYPES, { error: messageRef('moderation.error.type') }),
  id: decimalId(),
});
const memberParams = z.object({ userId: decimalId('moderation.label.userId') });

export const resolveBodySchema = z.strictObject(
  {
    action: z.enum(RESOLVE_ACTIONS, { error: messageRef('moderation.error.action') }).default('none'),
    reason: reason(false).default(''),
  },
  { error: messageRef('moderation.error.unknownField') },
);
export type ResolveBody = z.input<typeof resolveBodySchema>;

export const contentActionBodySchema = z.strictObject(
  { reason: reason(false).default('') },
  { error: messageRef('moderation.error.unknownField') },
);

export const banBodySchema = z
  .strictObject(
    {
      period: z.enum(BAN_PERIODS, { error: messageRef('moderation.error.period') }),
      /** With `custom` only: when the ban ends (an ISO date-time in the future). */
      until: z.iso.datetime({ offset: true, error: messageRef('moderation.error.until') }).optional(),
      reason: reason(true),
    },
    { error: messageRef('moderation.error.unknownField') },
  )
  // An end time with a fixed period would be ignored: say so instead.
  .refine((body) => body.period === 'custom' || body.until === undefined, {
    error: messageRef('moderation.error.untilOnlyCustom'),
    path: ['until'],
  });
export type BanBody = z.input<typeof banBodySchema>;

export const groupBodySchema = z.strictObject(
  { group: z.enum(ASSIGNABLE_GROUPS, { error: messageRef('moderation.error.group') }) },
  { error: messageRef('moderation.error.unknownField') },
);

export const moderationContract = {
  reports: endpoint({
    method: 'GET',
    path: '/moderation/reports',
    query: z.object({
      kind: z.enum(QUEUE_KINDS, { error: messageRef('moderation.error.kind') }).default('content'),
      ...pageQuery,
    }),
    response: as<ReportQueue<ReportedItem> | ReportQueue<ReportedLink>>(),
    auth: 'required',
    summary: 'Editors: open reports, gathered per item (content) or per download link (links), newest first',
  }),
  resolve: endpoint({
    method: 'POST',
    path: '/moderation/reports/:type/:id/resolve',
    params: queueParams,
    body: resolveBodySchema,
    response: as<{ closed: number }>(),
    auth: 'required',
    summary: "Editors: closes an item's open reports with an action (hide, delete, remove the link); 409 REPORT_CLOSED",
  }),
  dismiss: endpoint({
    method: 'POST',
    path: '/moderation/reports/:type/:id/dismiss',
    params: queueParams,
    body: contentActionBodySchema,
    response: as<{ closed: number }>(),
    auth: 'required',
    summary: "Editors: dismisses an item's open reports; 409 REPORT_CLOSED",
  }),
  hide: endpoint({
    method: 'POST',
    path: '/moderation/content/:type/:id/hide',
    params: contentParams,
    body: contentActionBodySchema,
    response: as<ContentState>(),
    auth: 'required',
    summary: 'Editors: hides a published post, article or visible comment from every list and page',
  }),
  restore: endpoint({
    method: 'POST',
    path: '/moderation/content/:type/:id/restore',
    params: contentParams,
    body: contentActionBodySchema,
    response: as<ContentState>(),
    auth: 'required',
    summary: 'Editors: brings hidden content back as it was',
  }),
  remove: endpoint({
    method: 'POST',
    path: '/moderation/content/:type/:id/delete',
    params: contentParams,
    body: contentActionBodySchema,
    response: as<ContentState>(),
    auth: 'required',
    summary: 'Editors: deletes a post, article or comment (hidden or not); its author is told',
  }),
  members: endpoint({
    method: 'GET',
    path: '/moderation/users',
    query: z.object({ q: safeText({ max: 40, label: 'moderation.label.search', min: 1 }) }),
    response: as<{ items: MemberView[] }>(),
    auth: 'required',
    summary: 'Admins: members by userId or name (prefix), with their group and ban',
  }),
  ban: endpoint({
    method: 'POST',
    path: '/moderation/users/:userId/ban',
    params: memberParams,
    body: banBodySchema,
    response: as<MemberView>(),
    auth: 'required',
    summary: 'Admins: bans a member below them for a period or for good; their logins end at once',
  }),
  unban: endpoint({
    method: 'POST',
    path: '/moderation/users/:userId/unban',
    params: memberParams,
    body: contentActionBodySchema,
    response: as<MemberView>(),
    auth: 'required',
    summary: 'Admins: lifts a ban',
  }),
  setGroup: endpoint({
    method: 'PUT',
    path: '/moderation/users/:userId/group',
    params: memberParams,
    body: groupBodySchema,
    response: as<MemberView>(),
    auth: 'required',
    summary: "SuperAdmin: sets a member's group (user, creator, editor, admin); their next token refresh carries it",
  }),
  audit: endpoint({
    method: 'GET',
    path: '/moderation/audit',
    query: z.object({
      action: z.enum(AUDIT_ACTIONS, { error: messageRef('moderation.error.action') }).optional(),
      actor: queryInt({ min: 1, max: 2_147_483_647, label: 'moderation.label.actor' }).optional(),
      targetType: safeText({ max: 40, label: 'moderation.label.targetType' }).optional(),
      targetId: safeText({ max: 40, label: 'moderation.label.targetId' }).optional(),
      ...pageQuery,
    }),
    response: as<AuditPage>(),
    auth: 'required',
    summary: 'Admins: the audit log of staff actions, newest first, filtered by action, actor or target',
  }),
} as const satisfies Contract;
