import { z } from 'zod';
import { bodyId, decimalId, queryInt, safeText } from '../input-rules.ts';
import { topicNameField } from './community.ts';
import type { SectionView, TopicView, UserBrief } from './community-model.ts';
import { COMMUNITY_PAGE_MAX, COMMUNITY_PAGE_NUMBER_MAX, TOPIC_NAME_MAX } from './community-model.ts';

/**
 * Section and topic management (/create/section/…): editors and above create, edit and order sections,
 * appoint section moderators, edit topics and merge one topic into another. Sections are never deleted
 * or archived here: every post and article names its section, so a section stays once it exists.
 */

export {
  HEX_COLOR,
  iconChoice,
  SECTION_DESCRIPTION_MAX,
  SECTION_ICONS,
  SECTION_MODERATORS_MAX,
  SECTION_NAME_MAX,
  SECTIONS_MAX,
  TOPIC_DESCRIPTION_MAX,
  type IconChoice,
  type SectionIcon,
} from './sections-model.ts';
import {
  HEX_COLOR,
  SECTION_DESCRIPTION_MAX,
  SECTION_ICONS,
  SECTION_NAME_MAX,
  SECTIONS_MAX,
  TOPIC_DESCRIPTION_MAX,
} from './sections-model.ts';

/** A section with the members who moderate it. */
export interface SectionManageView extends SectionView {
  moderators: UserBrief[];
}

/** A topic as the management list shows it. */
export type TopicManageView = TopicView;

const L = {
  name: 'sections.label.name',
  description: 'sections.label.description',
  icon: 'sections.label.icon',
  color: 'sections.label.color',
  section: 'sections.label.section',
  topic: 'sections.label.topic',
  into: 'sections.label.into',
  user: 'sections.label.user',
} as const;

const iconField = z.union([z.literal(''), z.enum(SECTION_ICONS)], { error: 'sections.error.icon' });

/** POST /api/creator/sections and PUT /api/creator/sections/{id}. */
export const sectionBodySchema = z.strictObject(
  {
    name: safeText({ max: SECTION_NAME_MAX, min: 1, label: L.name }),
    description: safeText({ kind: 'multiline', max: SECTION_DESCRIPTION_MAX, label: L.description }).default(''),
    icon: iconField.default(''),
    color: z
      .string({ error: 'sections.error.color' })
      .transform((value) => value.trim().toLowerCase())
      .refine((value) => value === '' || HEX_COLOR.test(value), { error: 'sections.error.color' })
      .default(''),
  },
  { error: 'sections.error.unknownField' },
);
export type SectionBody = z.input<typeof sectionBodySchema>;

/** PUT /api/creator/sections/order: every section's id, in the new order. */
export const sectionOrderBodySchema = z.strictObject(
  { ids: z.array(bodyId(L.section), { error: 'sections.error.order' }).min(1).max(SECTIONS_MAX) },
  { error: 'sections.error.unknownField' },
);

/** POST /api/creator/sections/{id}/moderators: a member's numeric id or name. */
export const moderatorBodySchema = z.strictObject(
  { user: safeText({ max: 40, min: 1, label: L.user }) },
  { error: 'sections.error.unknownField' },
);

export const sectionIdParams = z.object({ id: decimalId(L.section) });
export const moderatorParams = z.object({ id: decimalId(L.section), userId: decimalId(L.user) });
export const topicIdParams = z.object({ id: decimalId(L.topic) });

/** GET /api/creator/topics: most used first; `keyword` matches names. */
export const topicManageQuerySchema = z.object({
  keyword: safeText({ max: TOPIC_NAME_MAX, label: 'validation.label.keyword' }).optional(),
  page: queryInt({ min: 1, max: COMMUNITY_PAGE_NUMBER_MAX, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: COMMUNITY_PAGE_MAX, label: 'validation.label.pageSize' }).default(20),
});

/** PUT /api/creator/topics/{id}. */
export const topicBodySchema = z.strictObject(
  {
    name: topicNameField,
    description: safeText({ kind: 'multiline', max: TOPIC_DESCRIPTION_MAX, label: L.description }).default(''),
    icon: iconField.default(''),
  },
  { error: 'sections.error.unknownField' },
);
export type TopicBody = z.input<typeof topicBodySchema>;

/** POST /api/creator/topics/{id}/merge: the topic that takes this one's posts, articles and followers. */
export const topicMergeBodySchema = z.strictObject(
  { intoId: bodyId(L.into) },
  { error: 'sections.error.unknownField' },
);
