import { CREATOR_GROUPS, type UserGroup } from './auth-model.ts';
import type { MessageKey } from './i18n/index.ts';

/** One group of the creator centre's sidebar (spec §2.7). */
export interface CreatorGroup {
  id: string;
  label: MessageKey;
  /** Groups marked so are shown to the creator group and above only (spec §6). */
  permissionNeeded: boolean;
  items: { route: string; label: MessageKey }[];
}

/**
 * The sidebar of spec §2.7. Only pages that exist are listed (`CREATOR_BUILT_ROUTES`); each issue that
 * builds a creator page adds its route there, and a group with no built page is left out.
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
    id: 'emoji',
    label: 'creator.group.emoji',
    permissionNeeded: true,
    items: [
      { route: '/create/emoji', label: 'creator.emoji.create' },
      { route: '/create/emoji/manage', label: 'creator.emoji.manage' },
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
]);

export const isCreatorGroup = (group: UserGroup | null | undefined): boolean =>
  group !== null && group !== undefined && CREATOR_GROUPS.includes(group);

/** The groups a viewer of `group` sees, with only built pages. */
export function creatorNavFor(
  group: UserGroup | null | undefined,
  built: ReadonlySet<string> = CREATOR_BUILT_ROUTES,
): CreatorGroup[] {
  const creator = isCreatorGroup(group);
  return CREATOR_GROUPS_NAV.filter((entry) => creator || !entry.permissionNeeded)
    .map((entry) => ({ ...entry, items: entry.items.filter((item) => built.has(item.route)) }))
    .filter((entry) => entry.items.length > 0);
}
