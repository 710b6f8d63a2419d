import type { Contract } from '../contract.ts';

/** The API of the catalogue editors: reading an item's document, saving it (applied directly by editors, otherwise as an update request), creating items, revisions and restoring one. */
export const creatorItemsContract = {} as const satisfies Contract;
