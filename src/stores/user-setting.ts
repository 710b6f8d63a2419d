import type { UserSetting } from '../shared/auth-model.ts';
import { authPaths } from '../shared/auth-model.ts';
import { api } from './api-client.ts';
import { $session, updateSessionUser } from './session.ts';

interface SettingDeps {
  put: (path: string, body: UserSetting) => Promise<{ data: { userSetting: Required<UserSetting> } }>;
}

const defaultDeps: SettingDeps = {
  put: (path, body) => api.put<{ userSetting: Required<UserSetting> }>(path, body),
};

/** Saves settings on the server, then in the session (and its cookie, which pages render from). */
export async function saveUserSetting(
  patch: UserSetting,
  deps: SettingDeps = defaultDeps,
): Promise<Required<UserSetting>> {
  const { data } = await deps.put(authPaths.userSetting, patch);
  if ($session.get()) updateSessionUser({ userSetting: data.userSetting });
  return data.userSetting;
}
