import type { UserGroup } from '../auth-model.ts';

/**
 * The creator centre's shared facts (decision 028): what can be edited, the states of an update
 * request, and which groups may do what. The server checks every call against these; pages and the
 * sidebar only follow them.
 */

/** Catalogue items and entities the creator centre edits, each with a revision history. */
export const EDIT_TYPES = ['galgame', 'lightnovel', 'volume', 'person', 'character', 'producer', 'tag'] as const;
export type EditType = (typeof EDIT_TYPES)[number];

/** The item editors (/create/item/…) and the entity editors (/create/entity/…). */
export const ITEM_EDIT_TYPES = ['galgame', 'lightnovel', 'volume'] as const satisfies readonly EditType[];
export const ENTITY_EDIT_TYPES = ['person', 'character', 'producer', 'tag'] as const satisfies readonly EditType[];

/**
 * An update request: waiting for review, applied, refused with a reason, sent back to its author for
 * changes (who may then resubmit it), or taken back by its author.
 */
export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'changes_requested', 'withdrawn'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A creator application (spec: reason, images, status, rejection reason). */
export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Staff who apply edits directly and review update requests and reports. */
export const EDITOR_GROUPS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];
/** Staff who restore revisions, review creator applications, ban members and read the audit log. */
export const ADMIN_GROUPS: readonly UserGroup[] = ['admin', 'superAdmin'];

export const isEditorGroup = (group: UserGroup | null | undefined): boolean =>
  group !== null && group !== undefined && EDITOR_GROUPS.includes(group);
export const isAdminGroup = (group: UserGroup | null | undefined): boolean =>
  group !== null && group !== undefined && ADMIN_GROUPS.includes(group);
export const isSuperAdmin = (group: UserGroup | null | undefined): boolean => group === 'superAdmin';

/** What the audit log records (moderation/audit-log.ts). */
export const AUDIT_ACTIONS = [
  'content.hide',
  'content.restore',
  'content.delete',
  'content.moderate',
  'report.resolve',
  'report.dismiss',
  'user.ban',
  'user.unban',
  'user.role',
  'application.approve',
  'application.reject',
  'request.approve',
  'request.reject',
  'request.changes',
  'revision.restore',
  'item.publish',
  'item.unpublish',
  'item.delete',
  'section.create',
  'section.update',
  'section.moderators',
  'topic.update',
  'topic.merge',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
