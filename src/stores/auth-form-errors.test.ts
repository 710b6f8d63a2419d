import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginSchema, registerSchema } from '../shared/auth.ts';
import { translator } from '../shared/i18n/catalogues.ts';
import { ApiError } from './api-client.ts';
import { describeAuthError, formErrorsFrom, formText, zodFieldErrors, type FormErrors } from './auth-form-errors.ts';

const zh = translator('zh-CN');
const en = translator('en');

/** The errors as the page shows them. */
const shown = (errors: FormErrors, t = zh) => ({
  fields: Object.fromEntries(
    Object.entries(errors.fields).flatMap(([field, message]) => (message ? [[field, formText(message, t)]] : [])),
  ),
  general: errors.general ? formText(errors.general, t) : null,
});

describe('formText', () => {
  it('translates catalogue messages in the page language and shows readable texts as they are', () => {
    expect(formText({ key: 'auth.error.rateLimited', params: { seconds: 9 } }, zh)).toBe('操作过于频繁，请 9 秒后再试');
    expect(formText({ key: 'auth.error.invalidCredentials' }, en)).not.toMatch(/[\u3400-\u9fff]/);
    expect(formText({ text: '密码至少 8 位' }, en)).toBe('密码至少 8 位');
  });
});

describe('zodFieldErrors', () => {
  it('keeps the first problem of each field', () => {
    const parsed = loginSchema.safeParse({ account: '  ', password: '' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(shown({ fields: zodFieldErrors(parsed.error), general: null }).fields).toEqual({
      account: '请输入用户名或邮箱',
      password: '请输入密码',
    });
  });

  it('shows a missing code request under the code field', () => {
    const parsed = registerSchema.safeParse({
      name: 'hikari',
      email: 'a@example.org',
      password: '12345678',
      code: '123456',
      uuid: '',
    });
    if (parsed.success) throw new Error('expected a failure');
    expect(shown({ fields: zodFieldErrors(parsed.error), general: null }).fields).toEqual({ code: '请先获取验证码' });
  });
});

describe('describeAuthError', () => {
  it.each([
    ['INVALID_CREDENTIALS', null, '用户名或密码错误'],
    ['ACCOUNT_BANNED', null, '该账号已被封禁，如有疑问请联系管理员'],
    ['RATE_LIMITED', 30, '操作过于频繁，请 30 秒后再试'],
    ['RATE_LIMITED', null, '操作过于频繁，请稍后再试'],
  ] as const)('%s (retry %s) → %s', (code, retryAfter, message) => {
    const error = new ApiError({ status: 400, code, message: 'server', retryAfter });
    expect(formText(describeAuthError(error), zh)).toBe(message);
  });

  it('falls back to the server message', () => {
    const error = new ApiError({ status: 500, code: 'INTERNAL_ERROR', message: '服务器错误' });
    expect(describeAuthError(error)).toEqual({ text: '服务器错误' });
  });
});

describe('formErrorsFrom', () => {
  afterEach(() => vi.restoreAllMocks());

  it('puts the server issues under their fields, and unknown fields in the general line', () => {
    const error = new ApiError({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: '参数错误',
      data: {
        issues: [
          { path: 'password', message: '密码至少 8 位' },
          { path: 'captcha', message: '人机验证失败' },
        ],
      },
    });
    expect(shown(formErrorsFrom(error, ['account', 'password']))).toEqual({
      fields: { password: '密码至少 8 位' },
      general: '人机验证失败',
    });
  });

  it('places codes that name a field under it', () => {
    const taken = new ApiError({ status: 409, code: 'EMAIL_TAKEN', message: 'taken' });
    expect(shown(formErrorsFrom(taken, ['name', 'email']))).toEqual({
      fields: { email: '邮箱已被注册' },
      general: null,
    });
    const wrongCode = new ApiError({ status: 400, code: 'CODE_INVALID', message: 'bad' });
    expect(shown(formErrorsFrom(wrongCode, ['email']))).toEqual({ fields: {}, general: '验证码错误' });
  });

  it('shows login failures in the general line, in the page language', () => {
    const error = new ApiError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'no' });
    expect(shown(formErrorsFrom(error, ['account', 'password']))).toEqual({ fields: {}, general: '用户名或密码错误' });
    expect(shown(formErrorsFrom(error, ['account', 'password']), en).general).toBe(en('auth.error.invalidCredentials'));
  });

  it('logs anything that is not an API error and shows a general apology', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(shown(formErrorsFrom(new Error('boom'), []))).toEqual({ fields: {}, general: '服务器开小差了，请稍后再试' });
    expect(logged).toHaveBeenCalled();
  });
});
