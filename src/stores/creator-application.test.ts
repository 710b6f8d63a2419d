import { describe, expect, it, vi } from 'vitest';
import type { UserGroup } from '../shared/auth-model.ts';
import { accessTokenGroup, syncSessionGroup, type GroupSyncDeps } from './creator-application.ts';

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

describe('accessTokenGroup', () => {
  it('reads the group claim of an access token', () => {
    expect(accessTokenGroup(jwt({ _id: 'u1', hikariUserGroup: 'creator' }))).toBe('creator');
    expect(accessTokenGroup(jwt({ _id: 'u1', hikariUserGroup: 'superAdmin', name: '小光' }))).toBe('superAdmin');
  });

  it('answers null for anything it cannot read', () => {
    for (const token of [null, undefined, '', 'abc', 'a.!!!.c', jwt({ hikariUserGroup: 'root' }), jwt({ _id: 'u1' })])
      expect(accessTokenGroup(token)).toBeNull();
  });
});

describe('syncSessionGroup', () => {
  /** A session whose token claims `tokenGroup`; a refresh issues `refreshedGroup` (or fails). */
  function deps(sessionGroup: UserGroup | null, tokenGroup: UserGroup, refreshedGroup: UserGroup | null) {
    let token = jwt({ hikariUserGroup: tokenGroup });
    let group = sessionGroup;
    const d = {
      readAccessToken: () => token,
      sessionGroup: () => group,
      refresh: vi.fn(async () => {
        if (!refreshedGroup) return 'failed' as const;
        token = jwt({ hikariUserGroup: refreshedGroup });
        return 'refreshed' as const;
      }),
      setSessionGroup: vi.fn((next: UserGroup) => {
        group = next;
      }),
    } satisfies GroupSyncDeps;
    return { d, group: () => group };
  }

  it('does nothing when the token and the stored user already say what the server says', async () => {
    const { d } = deps('user', 'user', 'user');
    expect(await syncSessionGroup('user', d)).toBe(false);
    expect(d.refresh).not.toHaveBeenCalled();
    expect(d.setSessionGroup).not.toHaveBeenCalled();
  });

  it('refreshes a token that is behind and stores the group the new token carries', async () => {
    const { d, group } = deps('user', 'user', 'creator');
    expect(await syncSessionGroup('creator', d)).toBe(true);
    expect(d.refresh).toHaveBeenCalledTimes(1);
    expect(group()).toBe('creator');
  });

  it('stores the server group when only the stored user is behind (another tab refreshed the token)', async () => {
    const { d, group } = deps('user', 'creator', 'creator');
    expect(await syncSessionGroup('creator', d)).toBe(true);
    expect(d.refresh).not.toHaveBeenCalled();
    expect(group()).toBe('creator');
  });

  it('follows a group taken away as well', async () => {
    const { d, group } = deps('editor', 'editor', 'user');
    expect(await syncSessionGroup('user', d)).toBe(true);
    expect(group()).toBe('user');
  });

  it('leaves a logged-out page alone', async () => {
    const { d } = deps(null, 'user', 'creator');
    expect(await syncSessionGroup('creator', d)).toBe(false);
    expect(d.refresh).not.toHaveBeenCalled();
  });

  it('shows the server group even when the refresh did not go through', async () => {
    const { d, group } = deps('user', 'user', null);
    expect(await syncSessionGroup('creator', d)).toBe(true);
    expect(d.refresh).toHaveBeenCalledTimes(1);
    expect(group()).toBe('creator');
  });
});
