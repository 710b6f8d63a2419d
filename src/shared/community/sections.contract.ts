import { as, endpoint, type Contract } from '../contract.ts';
import type { CommunityPage } from './community-model.ts';
import {
  moderatorBodySchema,
  moderatorParams,
  sectionBodySchema,
  sectionIdParams,
  sectionOrderBodySchema,
  topicBodySchema,
  topicIdParams,
  topicManageQuerySchema,
  topicMergeBodySchema,
  type SectionManageView,
  type TopicManageView,
} from './sections-manage.ts';

/**
 * The API of section and topic management (/create/section/…), for editors and above: creating, editing
 * and ordering sections, their moderators, editing topics and merging one into another.
 */
export const sectionsContract = {
  manageSections: endpoint({
    method: 'GET',
    path: '/creator/sections',
    response: as<SectionManageView[]>(),
    auth: 'required',
    summary: 'Every section in order with its moderators (editors and above)',
  }),
  createSection: endpoint({
    method: 'POST',
    path: '/creator/sections',
    body: sectionBodySchema,
    response: as<SectionManageView>(),
    auth: 'required',
    summary: 'Creates a section at the end of the order; a name in use is 409 NAME_IN_USE',
  }),
  orderSections: endpoint({
    method: 'PUT',
    path: '/creator/sections/order',
    body: sectionOrderBodySchema,
    response: as<SectionManageView[]>(),
    auth: 'required',
    summary: 'Puts every section in the order given (all ids, each once; 409 CONFLICT when the list is stale)',
  }),
  updateSection: endpoint({
    method: 'PUT',
    path: '/creator/sections/:id',
    params: sectionIdParams,
    body: sectionBodySchema,
    response: as<SectionManageView>(),
    auth: 'required',
    summary: "Changes a section's name, description, icon and colour",
  }),
  addModerator: endpoint({
    method: 'POST',
    path: '/creator/sections/:id/moderators',
    params: sectionIdParams,
    body: moderatorBodySchema,
    response: as<SectionManageView>(),
    auth: 'required',
    summary: 'Appoints a member (numeric id or name) as a moderator of the section',
  }),
  removeModerator: endpoint({
    method: 'DELETE',
    path: '/creator/sections/:id/moderators/:userId',
    params: moderatorParams,
    response: as<SectionManageView>(),
    auth: 'required',
    summary: 'Removes a moderator of the section',
  }),
  manageTopics: endpoint({
    method: 'GET',
    path: '/creator/topics',
    query: topicManageQuerySchema,
    response: as<CommunityPage<TopicManageView>>(),
    auth: 'required',
    summary: 'Topics, most used first, with their use counts; `keyword` matches names',
  }),
  updateTopic: endpoint({
    method: 'PUT',
    path: '/creator/topics/:id',
    params: topicIdParams,
    body: topicBodySchema,
    response: as<TopicManageView>(),
    auth: 'required',
    summary: "Changes a topic's name, description and icon (posts and articles keep it under the new name)",
  }),
  mergeTopic: endpoint({
    method: 'POST',
    path: '/creator/topics/:id/merge',
    params: topicIdParams,
    body: topicMergeBodySchema,
    response: as<TopicManageView>(),
    auth: 'required',
    summary:
      'Merges the topic into `intoId`: its posts, articles and followers move; it is removed and its name leads to `intoId`',
  }),
} as const satisfies Contract;
