import type { Contract } from '../contract.ts';

/** The API of moderation: the report queue, hiding, restoring and deleting content, bans, the audit log and roles. */
export const moderationContract = {} as const satisfies Contract;
