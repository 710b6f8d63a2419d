import { moderationContract } from '../../../shared/moderation/moderation.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import { busSessionEvents } from '../auth/auth.events.ts';
import type { UserRow } from '../users/users.tables.ts';
import type { Staff } from './moderation.access.ts';
import { readAuditLog } from './moderation.audit.ts';
import { moderateItem, type ContentAction } from './moderation.content.ts';
import { banMember, findMembers, setMemberGroup, unbanMember } from './moderation.members.ts';
import { closeReports, contentQueue, linkQueue } from './moderation.reports.ts';

/** Moderation: reports, content actions, bans, the audit log, roles. The services check the caller's group. */
export function moderationRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, jobs: ctx.jobs, targets: ctx.targets };
  const members = { db: ctx.db, events: busSessionEvents(ctx) };
  const staffOf = (user: UserRow): Staff => ({ id: user.id, group: user.user_group });

  const contentAction =
    (action: ContentAction) =>
    async (
      _c: unknown,
      input: { params: { type: 'post' | 'article' | 'comment'; id: number }; body: { reason: string }; user: UserRow },
    ) => {
      const outcome = await moderateItem(deps, staffOf(input.user), action, input.params, input.body.reason);
      await pagesChanged(ctx, outcome.tags);
      return { data: outcome.state };
    };

  return contractRoutes(ctx, moderationContract, {
    reports: async (_c, { query, user }) => ({
      data:
        query.kind === 'links'
          ? await linkQueue(ctx.db, staffOf(user), query)
          : await contentQueue(ctx.db, staffOf(user), query),
    }),
    resolve: async (_c, { params, body, user }) => {
      const outcome = await closeReports(
        deps,
        staffOf(user),
        params,
        { outcome: 'resolve', action: body.action },
        body.reason,
      );
      await pagesChanged(ctx, outcome.tags);
      return { data: { closed: outcome.closed } };
    },
    dismiss: async (_c, { params, body, user }) => {
      const outcome = await closeReports(deps, staffOf(user), params, { outcome: 'dismiss' }, body.reason);
      await pagesChanged(ctx, outcome.tags);
      return { data: { closed: outcome.closed } };
    },
    hide: contentAction('hide'),
    restore: contentAction('restore'),
    remove: contentAction('delete'),
    members: async (_c, { query, user }) => ({ data: await findMembers(ctx.db, staffOf(user), query.q) }),
    ban: async (_c, { params, body, user }) => ({
      data: await banMember(members, staffOf(user), params.userId, body),
    }),
    unban: async (_c, { params, body, user }) => ({
      data: await unbanMember(members, staffOf(user), params.userId, body.reason),
    }),
    setGroup: async (_c, { params, body, user }) => ({
      data: await setMemberGroup(ctx.db, staffOf(user), params.userId, body.group),
    }),
    audit: async (_c, { query, user }) => ({ data: await readAuditLog(ctx.db, staffOf(user), query) }),
  });
}
