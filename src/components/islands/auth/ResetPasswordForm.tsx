import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import {
  browserAuthFormDeps,
  createResetPasswordForm,
  prepareAuthForms,
  type ResetField,
} from '../../../stores/auth-forms.ts';
import { useT } from '../ui/use-t.ts';
import { FormField, FormMessage, NewPasswordFields, SubmitButton, useFormText } from './FormField.tsx';
import { withLocale } from '../ui/locale-context.tsx';

/** Password reset in two steps: a code mailed to the address, then the code and a new password. */
function ResetPasswordForm() {
  const t = useT();
  const text = useFormText();
  const [form] = useState(() => createResetPasswordForm(browserAuthFormDeps()));
  const { step, email, request, values, errors, busy } = useStore(form.$form);
  const secondsLeft = useStore(form.$secondsLeft);
  const emailCooldown = useStore(form.$emailCooldown);

  const submitEmail = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submitEmail();
  };

  const change = (field: ResetField) => (event: { currentTarget: HTMLInputElement }) =>
    form.change(field, event.currentTarget.value);

  const submitReset = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submitReset();
  };

  if (step === 'done') {
    return (
      <div className="mt-6 space-y-5" data-testid="reset-done">
        <FormMessage tone="success">{t('auth.reset.success')}</FormMessage>
        <a href="/login" className="hk-btn hk-btn-primary h-10 w-full text-[15px]">
          {t('auth.reset.toLogin')}
        </a>
      </div>
    );
  }

  const footer = (
    <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">
      {t('auth.reset.backToLogin')}{' '}
      <a href="/login" className="hk-link font-medium">
        {t('auth.register.toLogin')}
      </a>
    </p>
  );

  if (step === 'email') {
    const coolingDown = emailCooldown > 0;
    return (
      <form
        method="post"
        className="mt-6 space-y-4"
        noValidate
        onFocus={prepareAuthForms}
        onSubmit={submitEmail}
        data-testid="reset-email-form"
      >
        <FormField
          label={t('auth.field.email')}
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => form.changeEmail(event.currentTarget.value)}
          error={text(errors.fields.email)}
          disabled={busy}
          required
        />
        {errors.general && <FormMessage tone="error">{text(errors.general)}</FormMessage>}
        <SubmitButton busy={busy} disabled={coolingDown}>
          {coolingDown
            ? t('auth.code.retryIn', { seconds: emailCooldown })
            : busy
              ? t('auth.reset.sendingCode')
              : t('auth.reset.sendCode')}
        </SubmitButton>
        {footer}
      </form>
    );
  }

  const fieldError = (field: ResetField) => text(errors.fields[field]);
  return (
    <form
      method="post"
      className="mt-6 space-y-4"
      noValidate
      onFocus={prepareAuthForms}
      onSubmit={submitReset}
      data-testid="reset-password-form"
    >
      <div className="flex items-center justify-between gap-3 rounded-lg bg-zinc-50 px-3 py-2 text-sm ring-1 ring-zinc-200 dark:bg-zinc-800/60 dark:ring-zinc-700">
        <span className="min-w-0 truncate text-zinc-600 dark:text-zinc-300" role="status">
          {t('auth.reset.codeSentTo', { email: request?.email ?? '' })}
        </span>
        <button type="button" className="hk-link shrink-0" onClick={form.backToEmail} disabled={busy}>
          {t('auth.reset.changeEmail')}
        </button>
      </div>
      <FormField
        label={t('auth.field.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={values.code}
        onChange={change('code')}
        error={fieldError('code')}
        hint={t('auth.hint.code')}
        disabled={busy}
        required
        trailing={
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-10 shrink-0 px-3 tabular-nums"
            onClick={() => void form.resendCode()}
            disabled={busy || secondsLeft > 0}
            data-testid="send-code"
          >
            {secondsLeft > 0 ? t('auth.code.retryIn', { seconds: secondsLeft }) : t('auth.code.send')}
          </button>
        }
      />
      <NewPasswordFields
        label={t('auth.field.newPassword')}
        values={values}
        errors={{ password: fieldError('password'), confirm: fieldError('confirm') }}
        onChange={change}
        disabled={busy}
        t={t}
      />
      {errors.general && <FormMessage tone="error">{text(errors.general)}</FormMessage>}
      <SubmitButton busy={busy}>{busy ? t('auth.reset.submitting') : t('auth.reset.submit')}</SubmitButton>
      {footer}
    </form>
  );
}

export default withLocale(ResetPasswordForm);
