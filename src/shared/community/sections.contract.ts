import type { Contract } from '../contract.ts';

/** The API of section and topic management: creating, editing, ordering sections, merging topics, section moderators. */
export const sectionsContract = {} as const satisfies Contract;
