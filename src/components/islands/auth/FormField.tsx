import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { ErrorCode } from '../../../shared/api.ts';
import { translateRef, type Translate } from '../../../shared/i18n/index.ts';
import { ApiError } from '../../../stores/api-client.ts';

/** Building blocks shared by the login, register and reset-password forms. */

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** Shown beside the input (the send-code button). */
  trailing?: ReactNode;
}

const inputBase =
  'h-10 w-full min-w-0 flex-1 rounded-lg border bg-white px-3 text-sm text-zinc-900 shadow-xs transition-colors outline-none placeholder:text-zinc-500 focus-visible:outline-none focus:ring-2 disabled:opacity-60 dark:bg-zinc-800/60 dark:text-zinc-100 dark:placeholder:text-zinc-500';
const inputTone = {
  ok: 'border-zinc-300 focus:border-focus focus:ring-focus/30 dark:border-zinc-700',
  error: 'border-red-500 focus:border-red-500 focus:ring-red-500/25 dark:border-red-400',
};

/** A labelled input with its hint or error, wired for screen readers (aria-invalid, aria-describedby). */
export function FormField({ label, name, error, hint, trailing, ...input }: FormFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={note ? noteId : undefined}
          className={`${inputBase} ${error ? inputTone.error : inputTone.ok}`}
          {...input}
        />
        {trailing}
      </div>
      {note && (
        <p
          id={noteId}
          className={error ? 'text-xs text-red-600 dark:text-red-400' : 'text-xs text-zinc-500 dark:text-zinc-400'}
          data-testid={error ? `error-${name}` : undefined}
        >
          {note}
        </p>
      )}
    </div>
  );
}

/** The form-wide message line: an error, or a success note. */
/** A new password and its confirmation (register and reset). */
export function NewPasswordFields({
  label,
  values,
  errors,
  onChange,
  disabled,
  t,
}: {
  label: string;
  values: { password: string; confirm: string };
  errors: { password?: string | undefined; confirm?: string | undefined };
  onChange: (field: 'password' | 'confirm') => (event: { currentTarget: HTMLInputElement }) => void;
  disabled: boolean;
  t: Translate;
}) {
  return (
    <>
      <FormField
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        onChange={onChange('password')}
        error={errors.password}
        hint={t('auth.hint.password')}
        disabled={disabled}
        required
      />
      <FormField
        label={t('auth.field.confirmPassword')}
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        onChange={onChange('confirm')}
        error={errors.confirm}
        disabled={disabled}
        required
      />
    </>
  );
}

export function FormMessage({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  const tones = {
    error: 'bg-red-50 text-red-700 ring-red-200 dark:bg-red-950/40 dark:text-red-300 dark:ring-red-900/60',
    success: 'bg-primary-50 text-accent ring-primary-200 dark:bg-primary-900/30 dark:ring-primary-800/60',
    info: 'bg-zinc-50 text-zinc-600 ring-zinc-200 dark:bg-zinc-800/60 dark:text-zinc-300 dark:ring-zinc-700',
  };
  return (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg px-3 py-2 text-sm ring-1 ${tones[tone]}`}
      data-testid={`form-${tone}`}
    >
      {children}
    </p>
  );
}

export function SubmitButton({ busy, disabled, children }: { busy: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      className="hk-btn hk-btn-primary h-10 w-full text-[15px]"
      disabled={busy || disabled}
      aria-busy={busy}
    >
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white motion-reduce:animate-none"
        />
      )}
      {children}
    </button>
  );
}

export interface FormErrors {
  fields: Record<string, string>;
  general: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, general: null };

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

/**
 * The first problem of each field of a failed zod parse (anything with `issues`), in the page's
 * language: the shared schemas name their messages by key (`messageRef`).
 */
export function zodFieldErrors(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  t: Translate,
) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    const field = FIELD_ALIASES[key] ?? key;
    if (field && !fields[field]) fields[field] = translateRef(t, issue.message);
  }
  return fields;
}

/** The sentence for an account error the person can act on. */
export function describeAuthError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t('error.internal');
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
      return t('auth.error.invalidCredentials');
    case 'ACCOUNT_BANNED':
      return t('auth.error.banned');
    case 'RATE_LIMITED':
    case 'CODE_COOLDOWN':
      return error.retryAfter
        ? t('auth.error.rateLimited', { seconds: error.retryAfter })
        : t('auth.error.rateLimitedLater');
    case 'NAME_TAKEN':
      return t('auth.error.nameTaken');
    case 'EMAIL_TAKEN':
      return t('auth.error.emailTaken');
    case 'CODE_INVALID':
      return t('auth.error.codeInvalid');
    case 'CODE_EXPIRED':
      return t('auth.error.codeExpired');
    case 'CODE_TOO_MANY_ATTEMPTS':
      return t('auth.error.codeTooManyAttempts');
    default:
      return error.message;
  }
}

/**
 * Splits a failed call into field errors (the server's issues, or a code that names a field) and a
 * general line. Problems of fields the form does not show go to the general line so none is lost.
 */
export function formErrorsFrom(error: unknown, t: Translate, shownFields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) {
    console.error('[auth] unexpected form error', error);
    return { fields: {}, general: t('error.internal') };
  }
  const fields: Record<string, string> = {};
  const hidden: string[] = [];
  const place = (key: string, message: string) => {
    const field = FIELD_ALIASES[key] ?? key;
    if (shownFields.includes(field)) fields[field] ??= message;
    else hidden.push(message);
  };
  if (error.code === 'VALIDATION_FAILED' && error.issues.length > 0) {
    for (const [key, message] of Object.entries(error.fieldErrors())) place(key, message);
  } else {
    const field = FIELD_OF_CODE[error.code as ErrorCode];
    if (field) place(field, describeAuthError(error, t));
    else hidden.push(describeAuthError(error, t));
  }
  return { fields, general: hidden[0] ?? null };
}

/** Seconds left of a resend countdown, and a function that starts one. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (endsAt === null) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (at >= endsAt) setEndsAt(null);
    };
    const handle = setInterval(tick, 250);
    return () => clearInterval(handle);
  }, [endsAt]);
  const left = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  const start = (seconds: number) => {
    const at = Date.now();
    setNow(at);
    setEndsAt(at + Math.max(0, seconds) * 1000);
  };
  return [left, start];
}
