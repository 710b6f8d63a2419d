import type { SessionUser } from '../shared/auth-model.ts';
import type { ProfileUpdate } from '../shared/auth.ts';
import type { SessionList } from '../shared/users/space-model.ts';
import { api, loadAuthContract, type ApiClient } from './api-client.ts';
import { startSession, updateSessionUser } from './session.ts';

/**
 * The owner's space settings: profile, pictures, logins, password and email. Each action calls the API
 * through the contracts and keeps the session (and the user-info cookie pages render from) in step.
 */

type Client = Pick<ApiClient, 'call'>;

const usersContract = async () => (await import('../shared/users/users.contract.ts')).usersContract;

/** The caller's own profile as stored now (the user-info cookie may be older or shortened). */
export async function loadOwnProfile(client: Client = api): Promise<SessionUser> {
  return (await client.call((await usersContract()).myProfile)).data;
}

/** Saves profile fields (name, signature, bio, avatar, head cover) and updates the session with the answer. */
export async function saveProfile(patch: ProfileUpdate, client: Client = api): Promise<SessionUser> {
  const { data } = await client.call((await usersContract()).updateProfile, { body: patch });
  updateSessionUser({
    name: data.user.name,
    avatar: data.user.avatar,
    headCover: data.user.headCover,
    signature: data.user.signature,
    bio: data.user.bio,
  });
  return data.user;
}

/** The caller's open logins, the current one first. */
export async function loadSessions(client: Client = api): Promise<SessionList> {
  return (await client.call((await usersContract()).sessions)).data;
}

/** Ends every other login; answers how many ended. */
export async function logoutOtherSessions(client: Client = api): Promise<number> {
  return (await client.call((await usersContract()).logoutOtherSessions, { body: {} })).data.loggedOut;
}

/** Changes the password; the server ends every other login and answers a new session, kept here. */
export async function changePassword(oldPassword: string, newPassword: string, client: Client = api): Promise<void> {
  const { data } = await client.call((await loadAuthContract()).changePassword, { body: { oldPassword, newPassword } });
  startSession(data);
}

/** Asks for a code at the new address (checked against the current password); answers the code's uuid. */
export async function requestEmailCode(email: string, password: string, client: Client = api): Promise<string> {
  const { data } = await client.call((await loadAuthContract()).changeEmailRequest, { body: { email, password } });
  return data.uuid;
}

/** Changes the email with the mailed code. */
export async function changeEmail(email: string, code: string, uuid: string, client: Client = api): Promise<string> {
  const { data } = await client.call((await loadAuthContract()).changeEmailUpdate, { body: { email, code, uuid } });
  updateSessionUser({ email: data.user.email });
  return data.user.email;
}
