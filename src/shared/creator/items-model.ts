import type { EditType } from './creator-model.ts';

/**
 * The limits and helpers of the editors, the manage pages and the update requests, without schemas:
 * islands import these, and load the contracts (zod) when they first call.
 */

/** Longest explanation of an edit (the revision note or the request's reason). */
export const EDIT_NOTE_MAX = 500;

/** Longest reason of a refusal or a request for changes. */
export const REVIEW_REASON_MAX = 500;

/** Items with a publication status (the others are always public). */
export const PUBLISHABLE_TYPES = ['galgame', 'lightnovel'] as const satisfies readonly EditType[];
export type PublishableType = (typeof PUBLISHABLE_TYPES)[number];
export const isPublishable = (type: EditType): type is PublishableType =>
  (PUBLISHABLE_TYPES as readonly string[]).includes(type);

/** Most look-up answers (a picker shows them as suggestions). */
export const LOOKUP_LIMIT = 20;
export const MANAGE_PAGE_SIZE = 20;
