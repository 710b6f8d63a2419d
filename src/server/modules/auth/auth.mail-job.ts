import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { CODE_TTL_SECONDS, type CodePurpose } from '../../../shared/auth.ts';
import type { AppContext, AppJobQueue } from '../../context.ts';
import type { DbOrTrx } from '../../platform/jobs/job-queue.ts';
import { codeMail, emailChangedMail } from './auth.mails.ts';

/**
 * The account mails go out through the job queue (`auth.mail`): a slow or failing mail server neither
 * holds up the request nor loses the mail (retried with backoff, and sent after a restart). A code is
 * stored sealed (AES-256-GCM under a key derived from JWT_SECRET), never as plain text in the job
 * table, and a code mail still waiting when its code has expired is dropped instead of sent.
 */
export type AuthMailJob =
  | {
      kind: 'code';
      /** Empty when nobody is to be mailed (a reset asked for an email without an account). */
      to: string;
      purpose: CodePurpose;
      sealedCode: string;
      /** ISO time after which the code no longer works. */
      expiresAt: string;
    }
  | { kind: 'email_changed'; to: string; newEmail: string }
  /** A mail already written (a notifications digest), queued in the transaction that decided to send it. */
  | { kind: 'prepared'; to: string; subject: string; text: string };

declare module '../../context.ts' {
  interface AppJobs {
    'auth.mail': AuthMailJob;
  }
}

/** What the mail calls need: the queue, and the secret the codes are sealed with. */
export interface MailDeps {
  jobs: AppJobQueue;
  secret: string;
}

const sealKey = (secret: string) => createHmac('sha256', secret).update('hikari:mail-seal').digest();

export function sealCode(secret: string, code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The code, or null when it was not sealed with this secret (JWT_SECRET changed meanwhile). */
export function unsealCode(secret: string, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * Queues the mail with a verification code (inside the caller's transaction when it passes one).
 * `to` may be empty: the job is written all the same, so the request takes the same time either way.
 */
export async function queueCodeMail(
  deps: MailDeps,
  db: DbOrTrx,
  mail: { to: string; purpose: CodePurpose; code: string; now: Date },
): Promise<void> {
  await deps.jobs.enqueue(db, 'auth.mail', {
    kind: 'code',
    to: mail.to,
    purpose: mail.purpose,
    sealedCode: sealCode(deps.secret, mail.code),
    expiresAt: new Date(mail.now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
  });
}

/** Queues the notice to the previous address after an email change. */
export async function queueEmailChangedMail(deps: MailDeps, db: DbOrTrx, to: string, newEmail: string): Promise<void> {
  await deps.jobs.enqueue(db, 'auth.mail', { kind: 'email_changed', to, newEmail });
}

/**
 * Queues a finished mail in the caller's transaction (transactional outbox): it is sent once that
 * commits, and never when it rolls back. The mail server is never waited on inside the transaction.
 */
export async function queuePreparedMail(
  jobs: Pick<AppJobQueue, 'enqueue'>,
  db: DbOrTrx,
  mail: { to: string; subject: string; text: string },
): Promise<void> {
  await jobs.enqueue(db, 'auth.mail', { kind: 'prepared', to: mail.to, subject: mail.subject, text: mail.text });
}

/** The `auth.mail` job: builds the mail and sends it (a throw is retried by the queue). */
export async function sendAuthMail(ctx: Pick<AppContext, 'mailer' | 'config' | 'logger'>, job: AuthMailJob) {
  if (job.kind === 'email_changed') return ctx.mailer.send(emailChangedMail(job.to, job.newEmail));
  if (job.kind === 'prepared') return ctx.mailer.send({ to: job.to, subject: job.subject, text: job.text });
  if (!job.to) return;
  if (Date.parse(job.expiresAt) <= Date.now()) {
    ctx.logger.info({ purpose: job.purpose }, 'code mail dropped: the code expired before it could be sent');
    return;
  }
  const code = unsealCode(ctx.config.jwtSecret, job.sealedCode);
  if (code === null) {
    ctx.logger.warn({ purpose: job.purpose }, 'code mail dropped: sealed under another JWT_SECRET');
    return;
  }
  await ctx.mailer.send(codeMail(job.to, job.purpose, code));
}
