import { useState, type FormEvent } from 'react';
import { loginSchema } from '../../../shared/auth.ts';
import { authContract } from '../../../shared/auth/auth.contract.ts';
import { api } from '../../../stores/api-client.ts';
import { safeReturnPath, startSession } from '../../../stores/session.ts';
import { useT } from '../ui/use-t.ts';
import {
  FormField,
  FormMessage,
  NO_ERRORS,
  SubmitButton,
  formErrorsFrom,
  zodFieldErrors,
  type FormErrors,
} from './FormField.tsx';
import { withLocale } from '../ui/locale-context.tsx';

const FIELDS = ['account', 'password'] as const;
type Field = (typeof FIELDS)[number];

interface LoginFormProps {
  /** The path to return to (query parameter jumpTo); only a path on this site is followed. */
  jumpTo: string | null;
}

/** Log in with a user name or email and a password, then return to `jumpTo` with a full page load. */
function LoginForm({ jumpTo }: LoginFormProps) {
  const t = useT();
  const [values, setValues] = useState<Record<Field, string>>({ account: '', password: '' });
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const returnPath = safeReturnPath(jumpTo);

  const change = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ general: e.general, fields: { ...e.fields, [field]: '' } }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const parsed = loginSchema.safeParse(values);
    if (!parsed.success) {
      setErrors({ fields: zodFieldErrors(parsed.error, t), general: null });
      return;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const { data } = await api.call(authContract.login, { body: parsed.data });
      startSession(data);
      // A full load, so every island (and the server-rendered header) starts with the session.
      window.location.assign(returnPath);
    } catch (error) {
      setErrors(formErrorsFrom(error, t, FIELDS));
      setBusy(false);
    }
  };

  const registerHref = returnPath === '/' ? '/register' : `/register?jumpTo=${encodeURIComponent(returnPath)}`;

  return (
    <form className="mt-6 space-y-4" noValidate onSubmit={submit} data-testid="login-form">
      <FormField
        label={t('auth.field.account')}
        name="account"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={values.account}
        onChange={change('account')}
        error={errors.fields.account || undefined}
        disabled={busy}
        required
      />
      <FormField
        label={t('auth.field.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        onChange={change('password')}
        error={errors.fields.password || undefined}
        disabled={busy}
        required
      />
      <div className="flex justify-end text-sm">
        <a href="/reset-password" className="hk-link">
          {t('auth.login.forgot')}
        </a>
      </div>
      {errors.general && <FormMessage tone="error">{errors.general}</FormMessage>}
      <SubmitButton busy={busy}>{busy ? t('auth.login.submitting') : t('auth.login.submit')}</SubmitButton>
      <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">
        {t('auth.login.noAccount')}{' '}
        <a href={registerHref} className="hk-link font-medium">
          {t('auth.login.toRegister')}
        </a>
      </p>
    </form>
  );
}

export default withLocale(LoginForm);
