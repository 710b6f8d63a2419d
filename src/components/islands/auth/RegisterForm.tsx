import { useState, type FormEvent } from 'react';
import { CODE_RESEND_SECONDS, registerSchema, signupCheckSchema } from '../../../shared/auth.ts';
import { authContract } from '../../../shared/auth/auth.contract.ts';
import { ApiError, api } from '../../../stores/api-client.ts';
import { safeReturnPath, startSession } from '../../../stores/session.ts';
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
import { carryToast } from '../../../stores/next-page-toast.ts';

const FIELDS = ['name', 'email', 'password', 'confirm', 'code'] as const;
type Field = (typeof FIELDS)[number];

interface RegisterFormProps {
  jumpTo: string | null;
}

/**
 * Registration (spec §3 "Registration fields"): name and email are checked for availability before a
 * code is mailed; registering logs in, then returns to `jumpTo` with a full page load.
 */
function RegisterForm({ jumpTo }: RegisterFormProps) {
  const t = useT();
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    email: '',
    password: '',
    confirm: '',
    code: '',
  });
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  /** The code request this form holds, and the address it went to. */
  const [codeRequest, setCodeRequest] = useState<{ uuid: string; email: string } | null>(null);
  const [secondsLeft, startCountdown] = useCountdown();
  const returnPath = safeReturnPath(jumpTo);

  const change = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ general: e.general, fields: { ...e.fields, [field]: '' } }));
  };

  const sendCode = async () => {
    if (sending || secondsLeft > 0) return;
    const check = signupCheckSchema.safeParse({ name: values.name, email: values.email });
    if (!check.success) {
      setErrors({ fields: zodFieldErrors(check.error, t), general: null });
      return;
    }
    setErrors(NO_ERRORS);
    setSending(true);
    try {
      const { data: availability } = await api.call(authContract.signupCheck, { body: check.data });
      const taken: Record<string, string> = {};
      if (!availability.name.available) taken.name = t('auth.error.nameTaken');
      if (!availability.email.available) taken.email = t('auth.error.emailTaken');
      if (Object.keys(taken).length > 0) {
        setErrors({ fields: taken, general: null });
        return;
      }
      const { data } = await api.call(authContract.codeRequest, {
        body: { email: check.data.email, type: 'register' },
      });
      setCodeRequest({ uuid: data.uuid, email: check.data.email });
      startCountdown(data.resendAfter > 0 ? data.resendAfter : CODE_RESEND_SECONDS);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CODE_COOLDOWN')
        startCountdown(error.retryAfter ?? CODE_RESEND_SECONDS);
      setErrors(formErrorsFrom(error, t, FIELDS));
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // A code mailed to another address than the one now typed cannot match.
    const uuid = codeRequest && codeRequest.email === values.email.trim().toLowerCase() ? codeRequest.uuid : '';
    const parsed = registerSchema.safeParse({
      name: values.name,
      email: values.email,
      password: values.password,
      code: values.code,
      uuid,
    });
    const fields: Record<string, string> = parsed.success ? {} : zodFieldErrors(parsed.error, t);
    if (values.confirm !== values.password && !fields.confirm) fields.confirm = t('auth.error.passwordMismatch');
    if (!parsed.success || Object.keys(fields).length > 0) {
      setErrors({ fields, general: null });
      return;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const { data } = await api.call(authContract.register, { body: parsed.data });
      startSession(data);
      carryToast(window.sessionStorage, {
        type: 'success',
        message: t('auth.register.welcome', { name: data.user.name }),
      });
      window.location.assign(returnPath);
    } catch (error) {
      setErrors(formErrorsFrom(error, t, FIELDS));
      setBusy(false);
    }
  };

  const loginHref = returnPath === '/' ? '/login' : `/login?jumpTo=${encodeURIComponent(returnPath)}`;
  const codeButtonLabel =
    secondsLeft > 0
      ? t('auth.code.retryIn', { seconds: secondsLeft })
      : sending
        ? t('auth.code.sending')
        : t('auth.code.send');
  const fieldError = (field: Field) => errors.fields[field] || undefined;

  return (
    <form className="mt-6 space-y-4" noValidate onSubmit={submit} data-testid="register-form">
      <FormField
        label={t('auth.field.name')}
        name="name"
        autoComplete="username"
        spellCheck={false}
        value={values.name}
        onChange={change('name')}
        error={fieldError('name')}
        hint={t('auth.hint.name')}
        disabled={busy}
        required
      />
      <FormField
        label={t('auth.field.email')}
        name="email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        value={values.email}
        onChange={change('email')}
        error={fieldError('email')}
        disabled={busy}
        required
      />
      <NewPasswordFields
        label={t('auth.field.password')}
        values={values}
        errors={{ password: fieldError('password'), confirm: fieldError('confirm') }}
        onChange={change}
        disabled={busy}
        t={t}
      />
      <FormField
        label={t('auth.field.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={values.code}
        onChange={change('code')}
        error={fieldError('code')}
        hint={codeRequest ? t('auth.code.sent', { email: codeRequest.email }) : t('auth.hint.code')}
        disabled={busy}
        required
        trailing={
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-10 shrink-0 px-3 tabular-nums"
            onClick={sendCode}
            disabled={busy || sending || secondsLeft > 0}
            data-testid="send-code"
          >
            {codeButtonLabel}
          </button>
        }
      />
      {errors.general && <FormMessage tone="error">{errors.general}</FormMessage>}
      <SubmitButton busy={busy}>{busy ? t('auth.register.submitting') : t('auth.register.submit')}</SubmitButton>
      <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">
        {t('auth.register.hasAccount')}{' '}
        <a href={loginHref} className="hk-link font-medium">
          {t('auth.register.toLogin')}
        </a>
      </p>
    </form>
  );
}

export default withLocale(RegisterForm);
