import type { UserSetting } from '../shared/auth-model.ts';
import { usersContract } from '../shared/users/users.contract.ts';
import { api, type ApiClient } from './api-client.ts';
import { $session, updateSessionUser } from './session.ts';

type SettingDeps = Pick<ApiClient, 'call'>;

/** Saves settings on the server, then in the session (and its cookie, which pages render from). */
export async function saveUserSetting(patch: UserSetting, deps: SettingDeps = api): Promise<Required<UserSetting>> {
  const { data } = await deps.call(usersContract.updateSetting, { body: patch });
  if ($session.get()) updateSessionUser({ userSetting: data.userSetting });
  return data.userSetting;
}
