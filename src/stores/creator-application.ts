import type { UserGroup } from '../shared/auth-model.ts';
import type {
  ApplicationFilter,
  ApplicationPage,
  ApplicationStatusData,
  CreatorOverview,
  ReviewedApplicationView,
} from '../shared/creator/application.contract.ts';
import type { creatorApplicationContract } from '../shared/creator/application.contract.ts';
import type { ApiClient, RefreshOutcome } from './api-client.ts';
import {
  $session,
  accessTokenGroup,
  hydrateSessionFromCookies,
  readAccessToken,
  updateSessionUser,
} from './session.ts';

/**
 * Creator applications in the browser (the /creator-application form and status, the admins' review
 * page) and the creator centre's overview, through the API; and keeping the session's group in step
 * with the server's after a decision, so the avatar menu and the sidebar follow without logging out.
 */

interface ApplicationApi {
  client: Pick<ApiClient, 'call' | 'refresh'>;
  contract: typeof creatorApplicationContract;
}

let loading: Promise<ApplicationApi> | null = null;
function loadApi(): Promise<ApplicationApi> {
  loading ??= Promise.all([import('./api-client.ts'), import('../shared/creator/application.contract.ts')]).then(
    ([{ api }, { creatorApplicationContract: contract }]) => ({ client: api, contract }),
  );
  return loading;
}

export { accessTokenGroup };

export interface GroupSyncDeps {
  readAccessToken: () => string | null;
  sessionGroup: () => UserGroup | null;
  refresh: () => Promise<RefreshOutcome>;
  setSessionGroup: (group: UserGroup) => void;
}

const browserSyncDeps = async (): Promise<GroupSyncDeps> => {
  const { client } = await loadApi();
  return {
    readAccessToken,
    // A page whose header has not read the session yet reads it here.
    sessionGroup: () => ($session.get() ?? hydrateSessionFromCookies())?.hikariUserGroup ?? null,
    refresh: () => client.refresh(),
    setSessionGroup: (group) => updateSessionUser({ hikariUserGroup: group }),
  };
};

/**
 * When the server's group differs from what the access token or the stored user say (an admin approved
 * the member meanwhile), refreshes the token (the server issues it with the group it stores now) and
 * stores the group with the user, so the avatar menu changes at once and pages rendered next show the
 * new sidebar. Answers whether the session's group changed.
 */
export async function syncSessionGroup(serverGroup: UserGroup, deps?: GroupSyncDeps): Promise<boolean> {
  const d = deps ?? (await browserSyncDeps());
  const before = d.sessionGroup();
  if (before === null) return false;
  if (accessTokenGroup(d.readAccessToken()) !== serverGroup) await d.refresh();
  // Even when the refresh did not go through (offline), the server's answer is the group to show.
  if (before === serverGroup) return false;
  d.setSessionGroup(serverGroup);
  return true;
}

export async function loadApplicationStatus(): Promise<ApplicationStatusData> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.status)).data;
}

export async function submitApplication(input: { reason: string; images: string[] }): Promise<ApplicationStatusData> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.submit, { body: input })).data;
}

export async function withdrawApplication(id: number): Promise<ApplicationStatusData> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.withdraw, { params: { id }, body: {} })).data;
}

export async function listApplications(status: ApplicationFilter, page: number): Promise<ApplicationPage> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.list, { query: { status, page } })).data;
}

export async function decideApplication(
  id: number,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<ReviewedApplicationView> {
  const { client, contract } = await loadApi();
  const answer = decision.approve
    ? await client.call(contract.approve, { params: { id }, body: {} })
    : await client.call(contract.reject, { params: { id }, body: { reason: decision.reason } });
  return answer.data;
}

export async function loadCreatorOverview(): Promise<CreatorOverview> {
  const { client, contract } = await loadApi();
  return (await client.call(contract.overview)).data;
}
