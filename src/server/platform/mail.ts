import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from './logger.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send: (mail: Mail) => Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every mail is written to the log (with its text, so a person
 * trying the site locally can read the verification code there).
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.logger.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'mail (SMTP_URL not set, logged instead of sent)',
        );
      },
    };
  }
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
      options.logger.info({ mail: { to: mail.to, subject: mail.subject } }, 'mail sent');
    },
  };
}
