import type { ErrorCode } from '../shared/api.ts';
import { translateRef, type MessageKey, type Params, type Translate } from '../shared/i18n/index.ts';
import { ApiError } from './api-client.ts';

/**
 * The messages of the login, register and reset-password forms, kept independent of the language:
 * a catalogue key (with its parameters) or a text that is already readable (a field rule's message,
 * a server message). `formText` turns one into the sentence shown, in the page's language.
 */
export type FormText = { key: MessageKey; params?: Params } | { text: string };

export interface FormErrors {
  fields: Partial<Record<string, FormText>>;
  general: FormText | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, general: null };

/**
 * The one place a form message becomes the text on the page. A text that is a message reference (the
 * shared field rules name their messages by key) is translated too.
 */
export function formText(message: FormText, t: Translate): string {
  return 'key' in message ? t(message.key, message.params) : translateRef(t, message.text);
}

/** A problem found by a shared field rule (zod), as the form shows it. */
export function issueText(issue: { message: string }): FormText {
  return { text: issue.message };
}

/** Where a field's problem is shown when that field has no input of its own (the code request id). */
const FIELD_ALIASES: Record<string, string> = { uuid: 'code' };

/** Errors that belong under one field rather than above the button. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, string>> = {
  NAME_TAKEN: 'name',
  EMAIL_TAKEN: 'email',
  CODE_INVALID: 'code',
  CODE_EXPIRED: 'code',
  CODE_TOO_MANY_ATTEMPTS: 'code',
  CODE_COOLDOWN: 'code',
};

/** The first problem of each field of a failed zod parse (anything with `issues`). */
export function zodFieldErrors(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): Partial<Record<string, FormText>> {
  const fields: Partial<Record<string, FormText>> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    const field = FIELD_ALIASES[key] ?? key;
    if (field && !fields[field]) fields[field] = issueText(issue);
  }
  return fields;
}

/** The sentence for an account error the person can act on. */
export function describeAuthError(error: unknown): FormText {
  if (!(error instanceof ApiError)) return { key: 'error.internal' };
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
      return { key: 'auth.error.invalidCredentials' };
    case 'ACCOUNT_BANNED':
      return { key: 'auth.error.banned' };
    case 'RATE_LIMITED':
    case 'CODE_COOLDOWN':
      return error.retryAfter
        ? { key: 'auth.error.rateLimited', params: { seconds: error.retryAfter } }
        : { key: 'auth.error.rateLimitedLater' };
    case 'NAME_TAKEN':
      return { key: 'auth.error.nameTaken' };
    case 'EMAIL_TAKEN':
      return { key: 'auth.error.emailTaken' };
    case 'CODE_INVALID':
      return { key: 'auth.error.codeInvalid' };
    case 'CODE_EXPIRED':
      return { key: 'auth.error.codeExpired' };
    case 'CODE_TOO_MANY_ATTEMPTS':
      return { key: 'auth.error.codeTooManyAttempts' };
    default:
      return { text: error.message };
  }
}

/**
 * Splits a failed call into field errors (the server's issues, or a code that names a field) and a
 * general line. Problems of fields the form does not show go to the general line so none is lost.
 */
export function formErrorsFrom(error: unknown, shownFields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) {
    console.error('[auth] unexpected form error', error);
    return { fields: {}, general: { key: 'error.internal' } };
  }
  const fields: Partial<Record<string, FormText>> = {};
  const hidden: FormText[] = [];
  const place = (key: string, message: FormText) => {
    const field = FIELD_ALIASES[key] ?? key;
    if (shownFields.includes(field)) fields[field] ??= message;
    else hidden.push(message);
  };
  if (error.code === 'VALIDATION_FAILED' && error.issues.length > 0) {
    for (const [key, message] of Object.entries(error.fieldErrors())) place(key, { text: message });
  } else {
    const field = FIELD_OF_CODE[error.code as ErrorCode];
    if (field) place(field, describeAuthError(error));
    else hidden.push(describeAuthError(error));
  }
  return { fields, general: hidden[0] ?? null };
}
