import type { Contract } from '../contract.ts';

/** The API of update requests: a member's own (/create/update-request/requests) and the review queue (/create/update-request/audits). */
export const updateRequestsContract = {} as const satisfies Contract;
