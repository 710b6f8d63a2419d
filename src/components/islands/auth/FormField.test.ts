import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginSchema, registerSchema } from '../../../shared/auth.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { FormField, describeAuthError, formErrorsFrom, zodFieldErrors } from './FormField.tsx';
import LoginForm from './LoginForm.tsx';
import RegisterForm from './RegisterForm.tsx';
import ResetPasswordForm from './ResetPasswordForm.tsx';

const t = translator('zh-CN');

describe('zodFieldErrors', () => {
  it('keeps the first problem of each field', () => {
    const parsed = loginSchema.safeParse({ account: '  ', password: '' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(zodFieldErrors(parsed.error, t)).toEqual({ account: '请输入用户名或邮箱', password: '请输入密码' });
    expect(zodFieldErrors(parsed.error, translator('en'))).toEqual({
      account: 'User name or email is required',
      password: 'Enter a password',
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
    expect(zodFieldErrors(parsed.error, t)).toEqual({ code: '请先获取验证码' });
  });
});

describe('describeAuthError', () => {
  it.each([
    ['INVALID_CREDENTIALS', null, '用户名或密码错误'],
    ['ACCOUNT_BANNED', null, '该账号已被封禁，如有疑问请联系管理员'],
    ['RATE_LIMITED', 30, '操作过于频繁，请 30 秒后再试'],
    ['RATE_LIMITED', null, '操作过于频繁，请稍后再试'],
  ] as const)('%s (retry %s) → %s', (code, retryAfter, message) => {
    expect(describeAuthError(new ApiError({ status: 400, code, message: 'server', retryAfter }), t)).toBe(message);
  });

  it('falls back to the server message', () => {
    expect(describeAuthError(new ApiError({ status: 500, code: 'INTERNAL_ERROR', message: '服务器错误' }), t)).toBe(
      '服务器错误',
    );
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
    expect(formErrorsFrom(error, t, ['account', 'password'])).toEqual({
      fields: { password: '密码至少 8 位' },
      general: '人机验证失败',
    });
  });

  it('places codes that name a field under it', () => {
    const taken = new ApiError({ status: 409, code: 'EMAIL_TAKEN', message: 'taken' });
    expect(formErrorsFrom(taken, t, ['name', 'email'])).toEqual({ fields: { email: '邮箱已被注册' }, general: null });
    const wrongCode = new ApiError({ status: 400, code: 'CODE_INVALID', message: 'bad' });
    expect(formErrorsFrom(wrongCode, t, ['email'])).toEqual({ fields: {}, general: '验证码错误' });
  });

  it('shows login failures in the general line', () => {
    const error = new ApiError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'no' });
    expect(formErrorsFrom(error, t, ['account', 'password'])).toEqual({ fields: {}, general: '用户名或密码错误' });
  });

  it('logs anything that is not an API error and shows a general apology', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(formErrorsFrom(new Error('boom'), t, [])).toEqual({ fields: {}, general: '服务器开小差了，请稍后再试' });
    expect(logged).toHaveBeenCalled();
  });
});

describe('auth forms (server render)', () => {
  it('ties a field to its error for screen readers', () => {
    const html = renderToStaticMarkup(
      createElement(FormField, { label: '密码', name: 'password', error: '请输入密码' }),
    );
    const id = /<input id="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`for="${id}"`);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain(`aria-describedby="${id}-note"`);
    expect(html).toContain(`<p id="${id}-note"`);
  });

  it('renders the login form with the way back kept on the register link', () => {
    const html = renderToStaticMarkup(createElement(LoginForm, { jumpTo: '/space/7?tab=rate', locale: 'zh-CN' }));
    expect(html).toContain('用户名或邮箱');
    expect(html).toContain('href="/register?jumpTo=%2Fspace%2F7%3Ftab%3Drate"');
    expect(html).toContain('href="/reset-password"');
  });

  it('drops a jumpTo that leaves the site', () => {
    const html = renderToStaticMarkup(createElement(LoginForm, { jumpTo: '//evil.example', locale: 'zh-CN' }));
    expect(html).toContain('href="/register"');
  });

  it('renders the register form with the send-code button and the password hint', () => {
    const html = renderToStaticMarkup(createElement(RegisterForm, { jumpTo: null, locale: 'zh-CN' }));
    expect(html).toContain('发送验证码');
    expect(html).toContain('8–128 个字符');
    // HTML attribute names are case-insensitive; React writes this one in camel case.
    expect(html.toLowerCase()).toContain('autocomplete="one-time-code"');
  });

  it('starts the password reset with the email step', () => {
    const html = renderToStaticMarkup(createElement(ResetPasswordForm, { locale: 'zh-CN' }));
    expect(html).toContain('data-testid="reset-email-form"');
    expect(html).toContain('type="email"');
  });

  it('renders in the locale the server gives, with no Chinese left in English', () => {
    const login = renderToStaticMarkup(createElement(LoginForm, { jumpTo: null, locale: 'en' }));
    expect(login).toContain('User name or email');
    const register = renderToStaticMarkup(createElement(RegisterForm, { jumpTo: null, locale: 'en' }));
    const reset = renderToStaticMarkup(createElement(ResetPasswordForm, { locale: 'en' }));
    for (const html of [login, register, reset]) expect(html).not.toMatch(/[\u3400-\u9fff]/);
  });
});
