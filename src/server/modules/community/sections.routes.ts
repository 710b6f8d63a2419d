import { sectionsContract } from '../../../shared/community/sections.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pageTags, pagesChanged } from '../../http/page-cache-policy.ts';
import type { UserRow } from '../users/users.tables.ts';
import {
  addModerator,
  createSection,
  listManagedSections,
  listManagedTopics,
  mergeTopic,
  orderSections,
  removeModerator,
  updateSection,
  updateTopic,
  type Manager,
  type TopicChange,
} from './sections.manage.ts';

/** Section and topic management (editors and above; the service checks the role on every call). */
export function sectionsRoutes(ctx: AppContext) {
  const db = ctx.db;
  const managerOf = (user: UserRow): Manager => ({ id: user.id, group: user.user_group });

  /** Section names, order and moderators show on /community, every section page and every item's page. */
  const sectionsChanged = async () => {
    const ids = await db.selectFrom('section').select('id').execute();
    await pagesChanged(ctx, [pageTags.community, ...ids.map((row) => pageTags.section(row.id))]);
  };
  const topicsChanged = (topicIds: number[], change: TopicChange) =>
    pagesChanged(ctx, [
      pageTags.community,
      ...topicIds.map((id) => pageTags.topic(id)),
      ...change.items.map((item) => (item.type === 'post' ? pageTags.post(item.id) : pageTags.article(item.id))),
    ]);

  return contractRoutes(ctx, sectionsContract, {
    manageSections: async (_c, { user }) => ({ data: await listManagedSections(db, managerOf(user)) }),

    createSection: async (_c, { body, user }) => {
      const data = await createSection(db, managerOf(user), body);
      await sectionsChanged();
      return { data, status: 201, code: 'CREATED', message: 'sections.server.created' };
    },

    orderSections: async (_c, { body, user }) => {
      const data = await orderSections(db, managerOf(user), body.ids);
      await sectionsChanged();
      return { data, message: 'sections.server.ordered' };
    },

    updateSection: async (_c, { params, body, user }) => {
      const data = await updateSection(db, managerOf(user), params.id, body);
      await sectionsChanged();
      return { data, message: 'sections.server.updated' };
    },

    addModerator: async (_c, { params, body, user }) => {
      const data = await addModerator(db, managerOf(user), params.id, body.user);
      await pagesChanged(ctx, [pageTags.section(params.id)]);
      return { data, message: 'sections.server.moderatorAdded' };
    },

    removeModerator: async (_c, { params, user }) => {
      const data = await removeModerator(db, managerOf(user), params.id, params.userId);
      await pagesChanged(ctx, [pageTags.section(params.id)]);
      return { data, message: 'sections.server.moderatorRemoved' };
    },

    manageTopics: async (_c, { query, user }) => ({ data: await listManagedTopics(db, managerOf(user), query) }),

    updateTopic: async (_c, { params, body, user }) => {
      const change = await updateTopic(db, managerOf(user), params.id, body);
      await topicsChanged([params.id], change);
      return { data: change.topic, message: 'sections.server.topicUpdated' };
    },

    mergeTopic: async (_c, { params, body, user }) => {
      const change = await mergeTopic(db, managerOf(user), params.id, body.intoId);
      await topicsChanged([params.id, body.intoId], change);
      return { data: change.topic, message: 'sections.server.topicMerged' };
    },
  });
}
