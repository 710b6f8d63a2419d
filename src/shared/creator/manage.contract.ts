import type { Contract } from '../contract.ts';

/**
 * The API of the creator centre's manage pages and pickers: lists of items and entities to open,
 * look-ups for relation pickers, publishing, unpublishing and deleting.
 */
export const creatorManageContract = {} as const satisfies Contract;
