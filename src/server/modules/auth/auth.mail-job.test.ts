import { describe, expect, it } from 'vitest';
import type { Mail } from '../../platform/mail.ts';
import { createLogger } from '../../platform/logger.ts';
import { sealCode, sendAuthMail, unsealCode, type AuthMailJob } from './auth.mail-job.ts';

const secret = 'a-test-secret-that-is-long-enough-000000';

function harness(jwtSecret = secret) {
  const sent: Mail[] = [];
  const ctx = {
    mailer: { send: async (mail: Mail) => void sent.push(mail) },
    config: { jwtSecret } as never,
    logger: createLogger('silent'),
  };
  return { sent, run: (job: AuthMailJob) => sendAuthMail(ctx, job) };
}

const codeJob = (over: Partial<Extract<AuthMailJob, { kind: 'code' }>> = {}): AuthMailJob => ({
  kind: 'code',
  to: 'reader@example.test',
  purpose: 'register',
  sealedCode: sealCode(secret, '123456'),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  ...over,
});

describe('auth.mail job', () => {
  it('keeps the code sealed in the payload and sends it in the mail', async () => {
    const job = codeJob();
    expect(JSON.stringify(job)).not.toContain('123456');
    expect(unsealCode(secret, (job as { sealedCode: string }).sealedCode)).toBe('123456');
    const { sent, run } = harness();
    await run(job);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe('reader@example.test');
    expect(sent[0]?.text).toContain('123456');
  });

  it('drops a code mail whose code has expired, one nobody is to get, and one sealed under another secret', async () => {
    const { sent, run } = harness();
    await run(codeJob({ expiresAt: new Date(Date.now() - 1).toISOString() }));
    await run(codeJob({ to: '' }));
    await run(codeJob({ sealedCode: sealCode('another-secret-that-is-long-enough-0000', '123456') }));
    await run(codeJob({ sealedCode: 'not-sealed-at-all' }));
    expect(sent).toEqual([]);
  });

  it('sends the notice of an email change to the previous address', async () => {
    const { sent, run } = harness();
    await run({ kind: 'email_changed', to: 'old@example.test', newEmail: 'new@example.test' });
    expect(sent[0]?.to).toBe('old@example.test');
    expect(sent[0]?.text).not.toContain('new@example.test');
  });

  it('sends a prepared mail (a notifications digest) as it was written', async () => {
    const { sent, run } = harness();
    await run({ kind: 'prepared', to: 'reader@example.test', subject: '【Hikari】你有 1 条新消息', text: '你好' });
    expect(sent).toEqual([{ to: 'reader@example.test', subject: '【Hikari】你有 1 条新消息', text: '你好' }]);
  });
});
