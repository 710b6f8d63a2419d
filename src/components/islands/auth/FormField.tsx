import { useCallback, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { Translate } from '../../../shared/i18n/index.ts';
import { formText, type FormText } from '../../../stores/auth-form-errors.ts';
import { useT } from '../ui/use-t.ts';

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

/** Shows a form store's message in the page's language (nothing for no message). */
export function useFormText(): (message: FormText | null | undefined) => string | undefined {
  const t = useT();
  return useCallback((message) => (message ? formText(message, t) : undefined), [t]);
}
