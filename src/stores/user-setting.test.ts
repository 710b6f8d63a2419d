import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_SETTING } from '../shared/auth-model.ts';
import { saveUserSetting } from './user-setting.ts';

describe('saving user settings', () => {
  it('sends the change and answers with the saved settings', async () => {
    const calls: unknown[] = [];
    const saved = await saveUserSetting(
      { nsfw: 'hide' },
      {
        put: async (path, body) => {
          calls.push([path, body]);
          return { data: { userSetting: { ...DEFAULT_USER_SETTING, ...body } } };
        },
      },
    );
    expect(calls).toEqual([['/user/user-setting', { nsfw: 'hide' }]]);
    expect(saved).toEqual({ locale: 'zh-CN', nsfw: 'hide', emailNotifications: true });
  });

  it('passes failures on', async () => {
    await expect(
      saveUserSetting({ nsfw: 'show' }, { put: async () => Promise.reject(new Error('offline')) }),
    ).rejects.toThrow('offline');
  });
});
