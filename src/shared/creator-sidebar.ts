import { CREATOR_GROUPS, type UserGroup } from './auth-model.ts';
import type { MessageKey } from './i18n/index.ts';

/** One entry of a sidebar group; `groups` narrows it to some staff groups (the audit queue: editors). */
export interface CreatorNavItem {
  route: string;
  label: MessageKey;
  groups?: readonly UserGroup[];
}

/** One group of the creator centre's sidebar (spec §2.7). */
export interface CreatorGroup {
  id: string;
  label: MessageKey;
  /** Groups marked so are shown to the creator group and above only (spec §6). */
  permissionNeeded: boolean;
  /** Narrower still: only these groups see the group (moderation). */
  groups?: readonly UserGroup[];
  items: CreatorNavItem[];
}

const EDITORS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];
const ADMINS: readonly UserGroup[] = ['admin', 'superAdmin'];

/**
 * The sidebar of spec §2.7, then the moderation group staff use (decision 028). Only pages that exist
 * are listed (`CREATOR_BUILT_ROUTES`); a group with no built page is left out.
 */
export const CREATOR_GROUPS_NAV: readonly CreatorGroup[] = [
  {
    id: 'overview',
    label: 'creator.group.overview',
    permissionNeeded: false,
    items: [{ route: '/create/home', label: 'creator.home' }],
  },
  {
    id: 'content',
    label: 'creator.group.content',
    permissionNeeded: false,
    items: [
      { route: '/create/content/post', label: 'creator.content.post' },
      { route: '/create/content/article', label: 'creator.content.article' },
      { route: '/create/content/draft/home', label: 'creator.content.drafts' },
      { route: '/create/content/manage/home', label: 'creator.content.manage' },
    ],
  },
  {
    id: 'section',
    label: 'creator.group.section',
    permissionNeeded: true,
    items: [
      { route: '/create/section', label: 'creator.section.create', groups: EDITORS },
      { route: '/create/section/manage/allsections', label: 'creator.section.manage', groups: EDITORS },
      { route: '/create/section/manage/topics', label: 'creator.section.topics', groups: EDITORS },
    ],
  },
  {
    id: 'update-request',
    label: 'creator.group.updateRequest',
    permissionNeeded: true,
    items: [
      { route: '/create/update-request/requests', label: 'creator.updateRequest.requests' },
      { route: '/create/update-request/audits', label: 'creator.updateRequest.audits', groups: EDITORS },
    ],
  },
  {
    id: 'item',
    label: 'creator.group.item',
    permissionNeeded: true,
    items: [
      { route: '/create/item/galgame', label: 'creator.item.galgame' },
      { route: '/create/item/lightnovel', label: 'creator.item.lightnovel' },
      { route: '/create/item/lightnovel/volume', label: 'creator.item.volume' },
      { route: '/create/item/manage/galgame', label: 'creator.item.manage' },
    ],
  },
  {
    id: 'entity',
    label: 'creator.group.entity',
    permissionNeeded: true,
    items: [
      { route: '/create/entity/person', label: 'creator.entity.person' },
      { route: '/create/entity/character', label: 'creator.entity.character' },
      { route: '/create/entity/producer', label: 'creator.entity.producer' },
      { route: '/create/entity/tag', label: 'creator.entity.tag' },
      { route: '/create/entity/manage/person', label: 'creator.entity.manage' },
    ],
  },
  {
    id: 'emoji',
    label: 'creator.group.emoji',
    permissionNeeded: true,
    items: [
      { route: '/create/emoji', label: 'creator.emoji.create' },
      { route: '/create/emoji/manage', label: 'creator.emoji.manage' },
    ],
  },
  {
    id: 'moderation',
    label: 'creator.group.moderation',
    permissionNeeded: true,
    groups: EDITORS,
    items: [
      { route: '/create/moderation/reports', label: 'creator.moderation.reports' },
      { route: '/create/moderation/applications', label: 'creator.moderation.applications', groups: ADMINS },
      { route: '/create/moderation/users', label: 'creator.moderation.users', groups: ADMINS },
      { route: '/create/moderation/log', label: 'creator.moderation.log', groups: ADMINS },
    ],
  },
];

export const CREATOR_BUILT_ROUTES: ReadonlySet<string> = new Set([
  '/create/home',
  '/create/content/post',
  '/create/content/article',
  '/create/content/draft/home',
  '/create/content/manage/home',
  '/create/emoji',
  '/create/emoji/manage',
  '/create/section',
  '/create/section/manage/allsections',
  '/create/section/manage/topics',
  '/create/update-request/requests',
  '/create/update-request/audits',
  '/create/item/galgame',
  '/create/item/lightnovel',
  '/create/item/lightnovel/volume',
  '/create/item/manage/galgame',
  '/create/entity/person',
  '/create/entity/character',
  '/create/entity/producer',
  '/create/entity/tag',
  '/create/entity/manage/person',
  '/create/moderation/reports',
  '/create/moderation/applications',
  '/create/moderation/users',
  '/create/moderation/log',
]);

export const isCreatorGroup = (group: UserGroup | null | undefined): boolean =>
  group !== null && group !== undefined && CREATOR_GROUPS.includes(group);

/** The groups a viewer of `group` sees, with only built pages. */
export function creatorNavFor(
  group: UserGroup | null | undefined,
  built: ReadonlySet<string> = CREATOR_BUILT_ROUTES,
): CreatorGroup[] {
  const creator = isCreatorGroup(group);
  const sees = (groups: readonly UserGroup[] | undefined) => !groups || (!!group && groups.includes(group));
  return CREATOR_GROUPS_NAV.filter((entry) => (creator || !entry.permissionNeeded) && sees(entry.groups))
    .map((entry) => ({ ...entry, items: entry.items.filter((item) => built.has(item.route) && sees(item.groups)) }))
    .filter((entry) => entry.items.length > 0);
}
