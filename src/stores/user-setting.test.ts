import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_SETTING, type UserSetting } from '../shared/auth-model.ts';
import { endpointPath, type ResponseOf } from '../shared/contract.ts';
import { saveUserSetting } from './user-setting.ts';

describe('saving user settings', () => {
  it('sends the change and answers with the saved settings', async () => {
    const calls: unknown[] = [];
    const saved = await saveUserSetting(
      { nsfw: 'hide' },
      {
        call: async (endpoint, ...[input]) => {
          const body = (input as { body: UserSetting }).body;
          calls.push([endpoint.method, endpointPath(endpoint), body]);
          const data = { userSetting: { ...DEFAULT_USER_SETTING, ...body } };
          return { success: true, code: 'OK', message: '', data: data as ResponseOf<typeof endpoint> };
        },
      },
    );
    expect(calls).toEqual([['PUT', '/user/user-setting', { nsfw: 'hide' }]]);
    expect(saved).toEqual({ locale: 'zh-CN', nsfw: 'hide', emailNotifications: true });
  });

  it('passes failures on', async () => {
    await expect(
      saveUserSetting({ nsfw: 'show' }, { call: async () => Promise.reject(new Error('offline')) }),
    ).rejects.toThrow('offline');
  });
});
