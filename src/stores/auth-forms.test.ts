import { translator } from '../shared/i18n/catalogues.ts';
import { formText, type FormText } from './auth-form-errors.ts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionData } from '../shared/auth.ts';
import { ApiError } from './api-client.ts';
import { fakeApi } from './fake-api.ts';
import {
  createLoginForm,
  createRegisterForm,
  createResetPasswordForm,
  loadAuthFormRules,
  type AuthFormDeps,
} from './auth-forms.ts';

function fakeDeps() {
  const api = fakeApi();
  const deps = {
    client: api.client,
    startSession: vi.fn<AuthFormDeps['startSession']>(),
    assign: vi.fn<AuthFormDeps['assign']>(),
    welcome: vi.fn<AuthFormDeps['welcome']>(),
  };
  return { api, deps };
}

const session = (name: string) =>
  ({
    user: { name },
    hikariAccessToken: 'a',
    hikariRefreshToken: 'r',
    refreshTokenExpiry: '2026-11-30T00:00:00.000Z',
  }) as SessionData;

const UUID = '8d3c5a7e-0b1f-4c2d-9e6a-3f4b5c6d7e8f';
const codeAnswer = (resendAfter = 60) => ({ uuid: UUID, expiresIn: 600, resendAfter });
const zh = translator('zh-CN');
/** A form message as the Chinese page shows it. */
const text = (message: FormText | null | undefined) => (message ? formText(message, zh) : null);

// As on the page, where focusing a form loads them: checks and requests then go out at once.
beforeAll(() => loadAuthFormRules());

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-22T12:00:00Z') });
});

it('a form sent before its rules have loaded waits for them, then checks and sends once', async () => {
  vi.resetModules();
  const fresh = await import('./auth-forms.ts');
  const { api, deps } = fakeDeps();
  const form = fresh.createLoginForm(deps, null);
  form.change('account', 'hikari_demo');
  form.change('password', 'hikari-demo-2026');
  const first = form.submit();
  const second = form.submit();
  await api.sent();
  expect(form.$form.get().busy).toBe(true);
  await api.answer(session('hikari_demo'));
  await Promise.all([first, second]);
  expect(api.calls).toHaveLength(1);
  expect(deps.assign).toHaveBeenCalledWith('/');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('login form', () => {
  it('checks the fields before sending anything', async () => {
    const { api, deps } = fakeDeps();
    const form = createLoginForm(deps, null);
    await form.submit();
    expect(api.calls).toEqual([]);
    expect(text(form.$form.get().errors.fields.account)).toBe('请输入用户名或邮箱');
    expect(text(form.$form.get().errors.fields.password)).toBe('请输入密码');
    // Typing in a field clears its problem only.
    form.change('account', 'hikari_demo');
    expect(form.$form.get().errors.fields.account).toBeUndefined();
    expect(form.$form.get().errors.fields.password).toBeDefined();
  });

  it('logs in once, starts the session and returns to the jumpTo page', async () => {
    const { api, deps } = fakeDeps();
    const form = createLoginForm(deps, '/galgame/list?sort=rating');
    form.change('account', 'hikari_demo');
    form.change('password', 'hikari-demo-2026');
    const submitting = form.submit();
    expect(form.$form.get().busy).toBe(true);
    await form.submit();
    expect(api.calls).toEqual([
      { method: 'POST', path: '/v2/user/login', body: { account: 'hikari_demo', password: 'hikari-demo-2026' } },
    ]);
    await api.answer(session('hikari_demo'));
    await submitting;
    expect(deps.startSession).toHaveBeenCalledWith(session('hikari_demo'));
    expect(deps.assign).toHaveBeenCalledWith('/galgame/list?sort=rating');
  });

  it('never follows a jumpTo that leaves the site', () => {
    const { deps } = fakeDeps();
    expect(createLoginForm(deps, '//evil.example').returnPath).toBe('/');
  });

  it('shows a refused login above the button and lets the person try again', async () => {
    const { api, deps } = fakeDeps();
    const form = createLoginForm(deps, null);
    form.change('account', 'hikari_demo');
    form.change('password', 'wrong password');
    const submitting = form.submit();
    await api.fail(new ApiError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'no' }));
    await submitting;
    expect(form.$form.get()).toMatchObject({
      busy: false,
      errors: { fields: {}, general: { key: 'auth.error.invalidCredentials' } },
    });
    expect(deps.startSession).not.toHaveBeenCalled();
    // Fixing a field keeps the general line until the next try.
    form.change('password', 'hikari-demo-2026');
    expect(form.$form.get().errors.general).toEqual({ key: 'auth.error.invalidCredentials' });
  });
});

function filledRegister(deps: AuthFormDeps) {
  const form = createRegisterForm(deps, '/galgame');
  form.change('name', 'new_member');
  form.change('email', ' New@Example.org ');
  form.change('password', 'a long password');
  form.change('confirm', 'a long password');
  return form;
}

describe('register form', () => {
  it('checks the name and email, mails a code, then counts down before another may be sent', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const seconds: number[] = [];
    const unbind = form.$secondsLeft.subscribe((left) => seconds.push(left));
    const sending = form.sendCode();
    expect(form.$form.get().sending).toBe(true);
    expect(api.calls[0]).toEqual({
      method: 'POST',
      path: '/v2/user/verification-for-signup',
      body: { name: 'new_member', email: 'new@example.org' },
    });
    await api.answer({ name: { available: true }, email: { available: true } });
    expect(api.calls[1]).toEqual({
      method: 'POST',
      path: '/v2/email/verification-code/request',
      body: { email: 'new@example.org', type: 'register' },
    });
    await api.answer(codeAnswer(60));
    await sending;
    expect(form.$form.get()).toMatchObject({ sending: false, codeRequest: { uuid: UUID, email: 'new@example.org' } });
    expect(form.$secondsLeft.get()).toBe(60);

    // A second press during the wait sends nothing.
    await form.sendCode();
    expect(api.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(form.$secondsLeft.get()).toBe(30);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(form.$secondsLeft.get()).toBe(0);
    expect(seconds.slice(0, 2)).toEqual([0, 60]);
    expect(seconds.at(-1)).toBe(0);
    unbind();

    void form.sendCode();
    expect(api.calls).toHaveLength(3);
  });

  it('says which of name and email is taken and mails nothing', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const sending = form.sendCode();
    await api.answer({ name: { available: false }, email: { available: false } });
    await sending;
    expect(api.calls).toHaveLength(1);
    expect(form.$form.get().errors.fields).toEqual({
      name: { key: 'auth.error.nameTaken' },
      email: { key: 'auth.error.emailTaken' },
    });
    expect(form.$secondsLeft.get()).toBe(0);
  });

  it('waits as long as the server says when it refuses a code too soon', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const sending = form.sendCode();
    await api.answer({ name: { available: true }, email: { available: true } });
    await api.fail(new ApiError({ status: 429, code: 'CODE_COOLDOWN', message: 'wait', retryAfter: 42 }));
    await sending;
    expect(form.$secondsLeft.get()).toBe(42);
    expect(form.$form.get().errors.fields.code).toEqual({ key: 'auth.error.rateLimited', params: { seconds: 42 } });
    expect(form.$form.get().codeRequest).toBeNull();
  });

  it('asks for a code first, and for the same password twice', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    form.change('confirm', 'another password');
    form.change('code', '123456');
    await form.submit();
    expect(api.calls).toEqual([]);
    expect(text(form.$form.get().errors.fields.code)).toBe('请先获取验证码');
    expect(form.$form.get().errors.fields.confirm).toEqual({ key: 'auth.error.passwordMismatch' });
  });

  it('does not send a code mailed to another address than the one now typed', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const sending = form.sendCode();
    await api.answer({ name: { available: true }, email: { available: true } });
    await api.answer(codeAnswer());
    await sending;
    form.change('email', 'other@example.org');
    form.change('code', '123456');
    await form.submit();
    expect(api.calls).toHaveLength(2);
    expect(text(form.$form.get().errors.fields.code)).toBe('请先获取验证码');
  });

  it('registers, starts the session, greets the new member and returns to jumpTo', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const sending = form.sendCode();
    await api.answer({ name: { available: true }, email: { available: true } });
    await api.answer(codeAnswer());
    await sending;
    form.change('code', ' 123456 ');
    const submitting = form.submit();
    expect(form.$form.get().busy).toBe(true);
    expect(api.calls[2]).toEqual({
      method: 'POST',
      path: '/v2/user/register',
      body: { name: 'new_member', email: 'new@example.org', password: 'a long password', code: '123456', uuid: UUID },
    });
    await api.answer(session('new_member'));
    await submitting;
    expect(deps.startSession).toHaveBeenCalledTimes(1);
    expect(deps.welcome).toHaveBeenCalledWith('new_member');
    expect(deps.assign).toHaveBeenCalledWith('/galgame');
  });

  it('puts a refused code under the code field', async () => {
    const { api, deps } = fakeDeps();
    const form = filledRegister(deps);
    const sending = form.sendCode();
    await api.answer({ name: { available: true }, email: { available: true } });
    await api.answer(codeAnswer());
    await sending;
    form.change('code', '000000');
    const submitting = form.submit();
    await api.fail(new ApiError({ status: 400, code: 'CODE_INVALID', message: 'bad' }));
    await submitting;
    expect(form.$form.get()).toMatchObject({
      busy: false,
      errors: { fields: { code: { key: 'auth.error.codeInvalid' } } },
    });
    expect(deps.startSession).not.toHaveBeenCalled();
  });
});

describe('reset-password form', () => {
  it('mails a code, then resets the password with it', async () => {
    const { api, deps } = fakeDeps();
    const form = createResetPasswordForm(deps);
    form.changeEmail(' Creator@Hikari.local ');
    const requesting = form.submitEmail();
    expect(form.$form.get().busy).toBe(true);
    expect(api.calls[0]).toEqual({
      method: 'POST',
      path: '/user/reset-password-code',
      body: { email: 'creator@hikari.local' },
    });
    await api.answer(codeAnswer());
    await requesting;
    expect(form.$form.get()).toMatchObject({
      step: 'reset',
      busy: false,
      request: { email: 'creator@hikari.local', uuid: UUID },
    });
    expect(form.$secondsLeft.get()).toBe(60);

    form.change('code', '654321');
    form.change('password', 'a brand new secret');
    form.change('confirm', 'a brand new secret');
    const resetting = form.submitReset();
    expect(api.calls[1]).toEqual({
      method: 'POST',
      path: '/user/reset-password',
      body: { email: 'creator@hikari.local', code: '654321', uuid: UUID, password: 'a brand new secret' },
    });
    await api.answer(null);
    await resetting;
    expect(form.$form.get()).toMatchObject({ step: 'done', busy: false });
  });

  it('checks the address and the new password before sending', async () => {
    const { api, deps } = fakeDeps();
    const form = createResetPasswordForm(deps);
    form.changeEmail('not an address');
    await form.submitEmail();
    expect(api.calls).toEqual([]);
    expect(text(form.$form.get().errors.fields.email)).toBe('请输入有效的邮箱地址');
    // Typing a new address clears the problem.
    form.changeEmail('creator@hikari.local');
    expect(form.$form.get().errors).toEqual({ fields: {}, general: null });

    const requesting = form.submitEmail();
    await api.answer(codeAnswer());
    await requesting;
    form.change('code', '12');
    form.change('password', 'short');
    form.change('confirm', 'other');
    await form.submitReset();
    expect(api.calls).toHaveLength(1);
    const { fields } = form.$form.get().errors;
    expect(text(fields.code)).toBe('验证码是 6 位数字');
    expect(text(fields.password)).toBe('密码至少 8 位');
    expect(fields.confirm).toEqual({ key: 'auth.error.passwordMismatch' });
  });

  it('keeps the resend wait for the address the code went to; another address may ask at once', async () => {
    const { api, deps } = fakeDeps();
    const form = createResetPasswordForm(deps);
    const unbind = form.$emailCooldown.listen(() => {});
    form.changeEmail('creator@hikari.local');
    const requesting = form.submitEmail();
    await api.answer(codeAnswer(60));
    await requesting;
    form.backToEmail();
    expect(form.$form.get()).toMatchObject({ step: 'email', values: { code: '', password: '', confirm: '' } });
    expect(form.$emailCooldown.get()).toBe(60);
    await form.submitEmail();
    expect(api.calls).toHaveLength(1);

    form.changeEmail('demo@hikari.local');
    expect(form.$emailCooldown.get()).toBe(0);
    const other = form.submitEmail();
    expect(api.calls[1]).toEqual({
      method: 'POST',
      path: '/user/reset-password-code',
      body: { email: 'demo@hikari.local' },
    });
    await api.answer(codeAnswer(60));
    await other;
    expect(form.$form.get().step).toBe('reset');
    unbind();
  });

  it('sends the code again to the same address once the wait is over, and shows a wrong code under its field', async () => {
    const { api, deps } = fakeDeps();
    const form = createResetPasswordForm(deps);
    const unbind = form.$secondsLeft.listen(() => {});
    form.changeEmail('creator@hikari.local');
    const requesting = form.submitEmail();
    await api.answer(codeAnswer(60));
    await requesting;
    await form.resendCode();
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    const resending = form.resendCode();
    expect(api.calls[1]).toEqual({
      method: 'POST',
      path: '/user/reset-password-code',
      body: { email: 'creator@hikari.local' },
    });
    await api.fail(new ApiError({ status: 429, code: 'CODE_COOLDOWN', message: 'wait', retryAfter: 20 }));
    await resending;
    expect(form.$secondsLeft.get()).toBe(20);
    expect(form.$form.get().errors.fields.code).toEqual({ key: 'auth.error.rateLimited', params: { seconds: 20 } });

    form.change('code', '000000');
    form.change('password', 'a brand new secret');
    form.change('confirm', 'a brand new secret');
    const resetting = form.submitReset();
    await api.fail(new ApiError({ status: 400, code: 'CODE_EXPIRED', message: 'expired' }));
    await resetting;
    expect(form.$form.get()).toMatchObject({
      step: 'reset',
      busy: false,
      errors: { fields: { code: { key: 'auth.error.codeExpired' } } },
    });
    unbind();
  });
});
