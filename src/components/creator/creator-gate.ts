import type { AstroGlobal } from 'astro';
import type { SessionUser, UserGroup } from '../../shared/auth-model.ts';
import { loginHref } from '../../shared/catalogue-format.ts';
import { isCreatorGroup } from '../../shared/creator-sidebar.ts';
import { sessionViewer } from '../galgame/viewer.ts';

export type CreatorGate = { redirect: Response } | { redirect: null; viewer: SessionUser; allowed: boolean };

/**
 * Who may open a creator-centre page: visitors are sent to log in (and back); on a page that needs the
 * permission (spec §2.7), members who are not creators get a 403 page. The overview and content pages
 * are for every member (`permissionNeeded: false`). Display only: every call the page makes is checked
 * by the API.
 */
export function creatorGate(
  Astro: AstroGlobal,
  { permissionNeeded = true, groups }: { permissionNeeded?: boolean; groups?: readonly UserGroup[] } = {},
): CreatorGate {
  const viewer = sessionViewer(Astro);
  if (!viewer) return { redirect: Astro.redirect(loginHref(`${Astro.url.pathname}${Astro.url.search}`)) };
  // `groups` narrows a page to some staff groups (audits: editors and above; the audit log: admins).
  const allowed = groups
    ? groups.includes(viewer.hikariUserGroup)
    : !permissionNeeded || isCreatorGroup(viewer.hikariUserGroup);
  if (!allowed) Astro.response.status = 403;
  return { redirect: null, viewer, allowed };
}
