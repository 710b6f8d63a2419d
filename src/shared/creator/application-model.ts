import { APPLICATION_STATUSES } from './creator-model.ts';

/** The limits and filters of creator applications, without schemas (islands import these at once). */

export const APPLICATION_REASON_MIN = 10;
export const APPLICATION_REASON_MAX = 1000;
/** Spec §2.11: the uploader's multiple mode holds at most 9 images. */
export const APPLICATION_IMAGES_MAX = 9;
export const REJECTION_REASON_MAX = 500;

/** The review list's filters: every status, or all. */
export const APPLICATION_FILTERS = ['all', ...APPLICATION_STATUSES] as const;
export type ApplicationFilter = (typeof APPLICATION_FILTERS)[number];
