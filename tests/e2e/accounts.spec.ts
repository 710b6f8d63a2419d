import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expectSilentRefresh } from './support/demo-login.ts';

const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
const mails: { to: string; subject: string; text: string }[] = [];
let smtp: SMTPServer;

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          mails.push({ to: to ?? '', subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function mailedCode(to: string): Promise<string> {
  await expect.poll(() => mails.find((m) => m.to === to)?.text ?? '', { timeout: 10_000 }).toMatch(/\d{6}/);
  const text = [...mails].reverse().find((m) => m.to === to)?.text ?? '';
  return /验证码是：(\d{6})/.exec(text)?.[1] ?? '';
}

test('register with a mailed code, log out, log in to the jumpTo page, refresh silently, log out via the dialog', async ({
  page,
  context,
}) => {
  const name = `e2e_${Date.now().toString(36)}`;
  const email = `${name}@example.test`;
  const password = 'e2e password 123';

  await page.goto('/register');
  await page.getByLabel('用户名').fill(name);
  await page.getByLabel('邮箱').fill(email);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('button', { name: '发送验证码' }).click();
  await expect(page.getByRole('button', { name: /秒后重试/ })).toBeVisible();
  const code = await mailedCode(email);
  expect(code).toMatch(/^\d{6}$/);
  expect(mails.find((m) => m.to === email)?.subject).toContain('Hikari');
  await page.getByLabel('验证码').fill(code);
  await page.getByRole('button', { name: '注册', exact: true }).click();

  // Registered and logged in: back home with the avatar menu instead of the login buttons, and a welcome.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: `注册成功，欢迎来到 Hikari，${name}！` })).toBeVisible();
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: '登录' })).toHaveCount(0);
  await expect(header.getByText(name)).toHaveCount(0);
  const menuButton = header.locator('[aria-haspopup]').first();
  await menuButton.click();
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.getByText(/HP\s*0/)).toBeVisible();

  // Log out through the confirm dialog: cancel keeps the session, confirm ends it.
  await page
    .getByRole('menuitem', { name: '退出登录' })
    .or(page.getByRole('button', { name: '退出登录' }))
    .first()
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('确定要退出登录吗？');
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toHaveCount(0);
  await menuButton.click();
  await page
    .getByRole('menuitem', { name: '退出登录' })
    .or(page.getByRole('button', { name: '退出登录' }))
    .first()
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(header.getByRole('link', { name: '登录' })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'hikari-refresh-token')).toBeUndefined();

  // Log in from a page that asked for it, and land back there.
  await page.goto('/login?jumpTo=%2Fdocs%2Fguide%2Fgetting-started%3Ftab%3D1');
  await page.getByLabel('用户名或邮箱').fill(email);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/guide\/getting-started\?tab=1$/);
  await expect(header.locator('[aria-haspopup]').first()).toBeVisible();

  // The access cookie runs out: the next page refreshes it silently and stays logged in.
  await expectSilentRefresh(context, async () => {
    await page.goto('/');
  });
  await expect(header.getByRole('link', { name: '登录' })).toHaveCount(0);
});

test('wrong credentials show an error under the form; field rules show before sending', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('请输入用户名或邮箱')).toBeVisible();
  await page.getByLabel('用户名或邮箱').fill('hikari_demo');
  await page.getByLabel('密码').fill('not the password');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
});

test('reset a forgotten password with a mailed code', async ({ page, request }) => {
  // An account of its own (through the API), so the demo accounts keep their passwords for other tests.
  const name = `reset_${Date.now().toString(36)}`;
  const email = `${name}@example.test`;
  const requested = await request.post('/api/v2/email/verification-code/request', {
    data: { email, type: 'register' },
  });
  expect(requested.ok()).toBeTruthy();
  const { uuid } = ((await requested.json()) as { data: { uuid: string } }).data;
  const registered = await request.post('/api/v2/user/register', {
    data: { name, email, password: 'the first secret', code: await mailedCode(email), uuid },
  });
  expect(registered.ok()).toBeTruthy();
  mails.length = 0;

  await page.goto('/reset-password');
  await page.getByLabel('邮箱').fill(email);
  await page.getByRole('button', { name: '发送验证码' }).click();
  const code = await mailedCode(email);
  await page.getByLabel('验证码').fill(code);
  await page.getByLabel('新密码').fill('a brand new secret');
  await page.getByLabel('确认密码').fill('a brand new secret');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByRole('link', { name: /登录/ }).first()).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('用户名或邮箱').fill(name);
  await page.getByLabel('密码').fill('a brand new secret');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});
