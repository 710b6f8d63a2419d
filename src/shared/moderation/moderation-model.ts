import { USER_GROUPS, type UserGroup } from '../auth-model.ts';

/** The enums and limits of moderation, without schemas (islands import these at once). */

/** What content actions apply to. */
export const MODERATED_TYPES = ['post', 'article', 'comment'] as const;
export type ModeratedType = (typeof MODERATED_TYPES)[number];

/** What the report queue holds: reported content, and reported download links (`link`). */
export const QUEUE_TYPES = [...MODERATED_TYPES, 'link'] as const;
export type QueueType = (typeof QUEUE_TYPES)[number];
export const QUEUE_KINDS = ['content', 'links'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** What resolving reports does besides closing them: hide or delete the item, remove the link, or nothing more. */
export const RESOLVE_ACTIONS = ['none', 'hide', 'delete', 'removeLink'] as const;
export type ResolveAction = (typeof RESOLVE_ACTIONS)[number];

export const BAN_PERIODS = ['1d', '7d', '30d', 'custom', 'forever'] as const;
export type BanPeriod = (typeof BAN_PERIODS)[number];
export const BAN_PERIOD_DAYS: Record<'1d' | '7d' | '30d', number> = { '1d': 1, '7d': 7, '30d': 30 };
/** A custom ban ends within this many days. */
export const BAN_CUSTOM_MAX_DAYS = 3650;

/** Groups the superAdmin may give through the API (never superAdmin itself). */
export const ASSIGNABLE_GROUPS = ['user', 'creator', 'editor', 'admin'] as const satisfies readonly UserGroup[];
export type AssignableGroup = (typeof ASSIGNABLE_GROUPS)[number];

/** Longest reason of a staff action. */
export const MODERATION_REASON_MAX = 500;
export const MODERATION_PAGE_MAX = 50;
/** Members one search answers at most. */
export const MEMBER_SEARCH_MAX = 20;

/** Where the group stands: a member acts on members strictly below them. */
export const groupRank = (group: UserGroup): number => USER_GROUPS.indexOf(group);

/** The state of moderated content as staff see it ('hidden': gone for everyone, kept for restoring). */
