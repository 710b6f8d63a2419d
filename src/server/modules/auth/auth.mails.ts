import { CODE_TTL_SECONDS, type CodePurpose } from '../../../shared/auth.ts';
import type { Mail } from '../../platform/mail.ts';

const purposeText: Record<CodePurpose, string> = {
  register: '注册 Hikari 账号',
  reset_password: '重置 Hikari 密码',
  change_email: '更换 Hikari 绑定邮箱',
};

/** Sent to the previous address after an email change. */
export function emailChangedMail(to: string, newEmail: string): Mail {
  const masked = newEmail.replace(/^(.).*(@.*)$/, '$1***$2');
  const text = [
    `你好！`,
    ``,
    `你的 Hikari 账号绑定邮箱已更换为 ${masked}。`,
    ``,
    `如果这不是你本人的操作，请立即通过“忘记密码”重置密码，并联系管理员。`,
    ``,
    `—— Hikari`,
  ].join('\n');
  return { to, subject: '【Hikari】账号绑定邮箱已更换', text };
}

/** The verification-code mail. */
export function codeMail(to: string, purpose: CodePurpose, code: string): Mail {
  const minutes = CODE_TTL_SECONDS / 60;
  const text = [
    `你好！`,
    ``,
    `你正在${purposeText[purpose]}，验证码是：${code}`,
    ``,
    `验证码 ${minutes} 分钟内有效，请勿告诉他人。如果这不是你本人的操作，请忽略这封邮件。`,
    ``,
    `—— Hikari`,
  ].join('\n');
  return { to, subject: `【Hikari】验证码 ${code}`, text };
}
