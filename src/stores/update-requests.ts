import type { EditType, RequestStatus } from '../shared/creator/creator-model.ts';
import type { RevisionDetail, RevisionPage, SaveOutcome } from '../shared/creator/items.contract.ts';
import type { RequestDetail, RequestPage, RequestSummary } from '../shared/creator/requests.contract.ts';

/**
 * Update requests and revisions in the browser (/create/update-request/…): the member's own requests,
 * the review queue and its decisions, an item's history and restore, all through the typed API client.
 */

async function loadApi() {
  const [{ api }, { updateRequestsContract }, { creatorItemsContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/creator/requests.contract.ts'),
    import('../shared/creator/items.contract.ts'),
  ]);
  return { client: api, requests: updateRequestsContract, items: creatorItemsContract };
}

export type RequestListMode = 'mine' | 'queue';

export interface RequestFilter {
  status: RequestStatus | '';
  type: EditType | '';
  page: number;
}

export async function listRequests(mode: RequestListMode, filter: RequestFilter): Promise<RequestPage> {
  const { client, requests } = await loadApi();
  const query = {
    page: filter.page,
    ...(filter.status ? { status: filter.status } : {}),
    ...(mode === 'queue' && filter.type ? { type: filter.type } : {}),
  };
  const answer =
    mode === 'mine' ? await client.call(requests.mine, { query }) : await client.call(requests.queue, { query });
  return answer.data;
}

export async function loadRequest(id: number): Promise<RequestDetail> {
  const { client, requests } = await loadApi();
  return (await client.call(requests.detail, { params: { id } })).data;
}

export async function approveRequest(id: number, overwrite?: string[]): Promise<SaveOutcome> {
  const { client, requests } = await loadApi();
  return (await client.call(requests.approve, { params: { id }, body: overwrite ? { overwrite } : {} })).data;
}

export async function closeRequest(
  id: number,
  decision: 'reject' | 'changes',
  reason: string,
): Promise<RequestSummary> {
  const { client, requests } = await loadApi();
  const endpoint = decision === 'reject' ? requests.reject : requests.requestChanges;
  return (await client.call(endpoint, { params: { id }, body: { reason } })).data;
}

export async function withdrawRequest(id: number): Promise<RequestSummary> {
  const { client, requests } = await loadApi();
  return (await client.call(requests.withdraw, { params: { id } })).data;
}

export async function listRevisions(type: EditType, id: number, page: number): Promise<RevisionPage> {
  const { client, items } = await loadApi();
  return (await client.call(items.revisions, { params: { type, id }, query: { page } })).data;
}

export async function loadRevision(type: EditType, id: number, number: number): Promise<RevisionDetail> {
  const { client, items } = await loadApi();
  return (await client.call(items.revision, { params: { type, id, number } })).data;
}

export async function restoreRevision(type: EditType, id: number, number: number): Promise<SaveOutcome> {
  const { client, items } = await loadApi();
  return (await client.call(items.restore, { params: { type, id, number }, body: {} })).data;
}

/** The public page of an item, for links from requests and history. */
export function itemPageHref(type: EditType, id: number): string | null {
  if (type === 'galgame' || type === 'lightnovel' || type === 'person' || type === 'character' || type === 'producer')
    return `/${type}/${id}`;
  if (type === 'volume') return `/lightnovel/volumes/${id}`;
  return `/galgame/list?tag=${id}`;
}
