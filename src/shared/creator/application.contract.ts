import type { Contract } from '../contract.ts';

/** The API of creator applications (spec §7 /user/creator-application/submit and /status) and their review by admins. */
export const creatorApplicationContract = {} as const satisfies Contract;
