import { useState, type FormEvent } from 'react';
import { CODE_RESEND_SECONDS, resetCodeSchema, resetPasswordSchema } from '../../../shared/auth.ts';
import { authContract } from '../../../shared/auth/auth.contract.ts';
import { ApiError, api } from '../../../stores/api-client.ts';
import { useT } from '../ui/use-t.ts';
import {
  FormField,
  FormMessage,
  NO_ERRORS,
  SubmitButton,
  formErrorsFrom,
  useCountdown,
  zodFieldErrors,
  type FormErrors,
  NewPasswordFields,
} from './FormField.tsx';
import { withLocale } from '../ui/locale-context.tsx';

type Step = 'email' | 'reset' | 'done';
const EMAIL_FIELDS = ['email'] as const;
const RESET_FIELDS = ['code', 'password', 'confirm'] as const;
type ResetField = (typeof RESET_FIELDS)[number];

/** Password reset in two steps: a code mailed to the address, then the code and a new password. */
function ResetPasswordForm() {
  const t = useT();
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  /** The address the code went to, as the server normalised it, and the request id. */
  const [request, setRequest] = useState<{ email: string; uuid: string } | null>(null);
  const [values, setValues] = useState<Record<ResetField, string>>({ code: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();

  const requestCode = async (address: string): Promise<boolean> => {
    const parsed = resetCodeSchema.safeParse({ email: address });
    if (!parsed.success) {
      setErrors({ fields: zodFieldErrors(parsed.error, t), general: null });
      return false;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const { data } = await api.call(authContract.resetPasswordCode, { body: parsed.data });
      setRequest({ email: parsed.data.email, uuid: data.uuid });
      startCountdown(data.resendAfter > 0 ? data.resendAfter : CODE_RESEND_SECONDS);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CODE_COOLDOWN')
        startCountdown(error.retryAfter ?? CODE_RESEND_SECONDS);
      setErrors(formErrorsFrom(error, t, step === 'email' ? EMAIL_FIELDS : RESET_FIELDS));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const submitEmail = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (await requestCode(email)) setStep('reset');
  };

  const change = (field: ResetField) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ general: e.general, fields: { ...e.fields, [field]: '' } }));
  };

  const submitReset = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !request) return;
    const parsed = resetPasswordSchema.safeParse({
      email: request.email,
      code: values.code,
      uuid: request.uuid,
      password: values.password,
    });
    const fields: Record<string, string> = parsed.success ? {} : zodFieldErrors(parsed.error, t);
    if (values.confirm !== values.password && !fields.confirm) fields.confirm = t('auth.error.passwordMismatch');
    if (!parsed.success || Object.keys(fields).length > 0) {
      setErrors({ fields, general: parsed.success ? null : (fields.email ?? null) });
      return;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      await api.call(authContract.resetPassword, { body: parsed.data });
      setStep('done');
    } catch (error) {
      setErrors(formErrorsFrom(error, t, RESET_FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const backToEmail = () => {
    setErrors(NO_ERRORS);
    setValues({ code: '', password: '', confirm: '' });
    setStep('email');
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
    // The resend wait belongs to the address the code went to; another address may ask at once.
    const coolingDown = secondsLeft > 0 && request?.email === email.trim().toLowerCase();
    return (
      <form className="mt-6 space-y-4" noValidate onSubmit={submitEmail} data-testid="reset-email-form">
        <FormField
          label={t('auth.field.email')}
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setErrors(NO_ERRORS);
          }}
          error={errors.fields.email || undefined}
          disabled={busy}
          required
        />
        {errors.general && <FormMessage tone="error">{errors.general}</FormMessage>}
        <SubmitButton busy={busy} disabled={coolingDown}>
          {coolingDown
            ? t('auth.code.retryIn', { seconds: secondsLeft })
            : busy
              ? t('auth.reset.sendingCode')
              : t('auth.reset.sendCode')}
        </SubmitButton>
        {footer}
      </form>
    );
  }

  const fieldError = (field: ResetField) => errors.fields[field] || undefined;
  return (
    <form className="mt-6 space-y-4" noValidate onSubmit={submitReset} data-testid="reset-password-form">
      <div className="flex items-center justify-between gap-3 rounded-lg bg-zinc-50 px-3 py-2 text-sm ring-1 ring-zinc-200 dark:bg-zinc-800/60 dark:ring-zinc-700">
        <span className="min-w-0 truncate text-zinc-600 dark:text-zinc-300" role="status">
          {t('auth.reset.codeSentTo', { email: request?.email ?? '' })}
        </span>
        <button type="button" className="hk-link shrink-0" onClick={backToEmail} disabled={busy}>
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
            onClick={() => void requestCode(request?.email ?? email)}
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
      {errors.general && <FormMessage tone="error">{errors.general}</FormMessage>}
      <SubmitButton busy={busy}>{busy ? t('auth.reset.submitting') : t('auth.reset.submit')}</SubmitButton>
      {footer}
    </form>
  );
}

export default withLocale(ResetPasswordForm);
