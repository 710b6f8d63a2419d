import type {
  AssignableGroup,
  AuditPage,
  BanPeriod,
  ContentState,
  MemberView,
  ModeratedType,
  QueueKind,
  QueueType,
  ReportedItem,
  ReportedLink,
  ReportQueue,
  ResolveAction,
  moderationContract,
} from '../shared/moderation/moderation.contract.ts';
import type { AuditAction } from '../shared/creator/creator-model.ts';
import type { ApiClient } from './api-client.ts';

/**
 * Moderation in the browser (the report queue, members, the audit log) through the API; the contract
 * and the client are loaded with the first call, so the pages' first paint does not wait for them.
 */

interface ModerationApi {
  client: Pick<ApiClient, 'call'>;
  contract: typeof moderationContract;
}

let loading: Promise<ModerationApi> | null = null;
function loadApi(): Promise<ModerationApi> {
  loading ??= Promise.all([import('./api-client.ts'), import('../shared/moderation/moderation.contract.ts')]).then(
    ([{ api }, { moderationContract: contract }]) => ({ client: api, contract }),
  );
  return loading;
}

export async function contentReports(page: number): Promise<ReportQueue<ReportedItem>> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.reports, { query: { kind: 'content', page } })).data as ReportQueue<ReportedItem>;
}

export async function linkReports(page: number): Promise<ReportQueue<ReportedLink>> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.reports, { query: { kind: 'links' satisfies QueueKind, page } }))
    .data as ReportQueue<ReportedLink>;
}

/** Closes an item's open reports: resolved with an action, or dismissed (`action` null). */
export async function closeReports(type: QueueType, id: number, action: ResolveAction | null): Promise<number> {
  const { client, contract } = await loadApi();
  const answer =
    action === null
      ? await client.call(contract.dismiss, { params: { type, id }, body: {} })
      : await client.call(contract.resolve, { params: { type, id }, body: { action } });
  return answer.data.closed;
}

export async function moderateContent(
  action: 'hide' | 'restore' | 'delete',
  type: ModeratedType,
  id: number,
  reason = '',
): Promise<ContentState> {
  const { client, contract } = await loadApi();
  const endpoint = action === 'hide' ? contract.hide : action === 'restore' ? contract.restore : contract.remove;
  return (await client.call(endpoint, { params: { type, id }, body: { reason } })).data;
}

export async function findMembers(q: string): Promise<MemberView[]> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.members, { query: { q } })).data.items;
}

export async function banMember(
  userId: number,
  ban: { period: BanPeriod; until?: string; reason: string },
): Promise<MemberView> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.ban, { params: { userId }, body: ban })).data;
}

export async function unbanMember(userId: number): Promise<MemberView> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.unban, { params: { userId }, body: {} })).data;
}

export async function setMemberGroup(userId: number, group: AssignableGroup): Promise<MemberView> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.setGroup, { params: { userId }, body: { group } })).data;
}

export interface AuditQuery {
  action?: AuditAction | undefined;
  actor?: number | undefined;
  targetId?: string | undefined;
  page: number;
}

export async function readAudit(query: AuditQuery): Promise<AuditPage> {
  const { client, contract } = await loadApi();
  return (
    await client.call(contract.audit, {
      query: {
        page: query.page,
        ...(query.action ? { action: query.action } : {}),
        ...(query.actor ? { actor: query.actor } : {}),
        ...(query.targetId ? { targetId: query.targetId } : {}),
      },
    })
  ).data;
}
