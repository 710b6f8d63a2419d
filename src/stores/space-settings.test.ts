import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../shared/auth-model.ts';
import { endpointPath, type AnyEndpoint, type ResponseOf } from '../shared/contract.ts';
import { $session } from './session.ts';
import { changeEmail, logoutOtherSessions, saveProfile } from './space-settings.ts';

const me = {
  _id: 'u1',
  isLogin: true,
  userId: 7,
  name: '小光',
  email: 'old@example.test',
  avatar: '',
  headCover: '',
  signature: '旧签名',
  bio: '旧简介',
} as SessionUser;

/** A client that records each call and answers `data`. */
function recording(data: unknown) {
  const calls: [string, string, unknown][] = [];
  const client = {
    call: async <E extends AnyEndpoint>(endpoint: E, ...[input]: unknown[]) => {
      calls.push([endpoint.method, endpointPath(endpoint), (input as { body?: unknown } | undefined)?.body]);
      return { success: true as const, code: 'OK' as const, message: '', data: data as ResponseOf<E> };
    },
  };
  return { calls, client };
}

describe('space settings', () => {
  afterEach(() => $session.set(null));

  it('saves profile fields and puts the stored ones into the session', async () => {
    $session.set(me);
    const { calls, client } = recording({ user: { ...me, signature: '新签名', avatar: 'https://img.test/a.webp' } });
    await saveProfile({ signature: '新签名' }, client);
    expect(calls).toEqual([['PUT', '/user/profile', { signature: '新签名' }]]);
    expect($session.get()).toMatchObject({ signature: '新签名', avatar: 'https://img.test/a.webp', bio: '旧简介' });
  });

  it('logs out the other devices with an empty JSON body and answers how many ended', async () => {
    const { calls, client } = recording({ loggedOut: 2 });
    expect(await logoutOtherSessions(client)).toBe(2);
    expect(calls).toEqual([['POST', '/user/sessions/logout-others', {}]]);
  });

  it('keeps the new email in the session once the code is accepted', async () => {
    $session.set(me);
    const { calls, client } = recording({ user: { ...me, email: 'new@example.test' } });
    await changeEmail('new@example.test', '123456', 'uuid-1', client);
    expect(calls).toEqual([
      ['POST', '/v2/user/change-email/update', { email: 'new@example.test', code: '123456', uuid: 'uuid-1' }],
    ]);
    expect($session.get()?.email).toBe('new@example.test');
  });
});
