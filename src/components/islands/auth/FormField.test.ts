import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormField } from './FormField.tsx';
import LoginForm from './LoginForm.tsx';
import RegisterForm from './RegisterForm.tsx';
import ResetPasswordForm from './ResetPasswordForm.tsx';

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
