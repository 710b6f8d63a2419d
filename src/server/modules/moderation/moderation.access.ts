import type { UserGroup } from '../../../shared/auth-model.ts';
import { isAdminGroup, isEditorGroup, isSuperAdmin } from '../../../shared/creator/creator-model.ts';
import { HttpError } from '../../platform/errors.ts';

/** The caller of a staff action: their account id and group, as the database has them now. */
export interface Staff {
  id: string;
  group: UserGroup;
}

/** Reports and content: editors and above (403 with a message otherwise). */
export function requireEditor(staff: Staff): void {
  if (!isEditorGroup(staff.group)) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.editorsOnly');
}

/** Bans and the audit log: admins and above. */
export function requireAdmin(staff: Staff): void {
  if (!isAdminGroup(staff.group)) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.adminsOnly');
}

/** Groups: the superAdmin only. */
export function requireSuperAdmin(staff: Staff): void {
  if (!isSuperAdmin(staff.group)) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.superAdminOnly');
}
