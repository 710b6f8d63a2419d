import type { Generated, Selectable } from 'kysely';
import type { ApplicationStatus } from '../../../shared/creator/creator-model.ts';

/** A member's request to join the creator group, and an admin's decision on it. */
export interface CreatorApplicationTable {
  id: number;
  user_id: string;
  reason: string;
  /** JSON string[]: addresses of images on our image bed (creator_application/{userId}/…). */
  images: Generated<string>;
  /** At most one `pending` per member (a unique partial index). */
  status: Generated<ApplicationStatus>;
  /** Why an admin refused it; '' otherwise. */
  rejection_reason: Generated<string>;
  reviewer_id: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}
export type CreatorApplicationRow = Selectable<CreatorApplicationTable>;

declare module '../../db/database.ts' {
  interface Database {
    creator_application: CreatorApplicationTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    creator_application_id: true;
  }
}
