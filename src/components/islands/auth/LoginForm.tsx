import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { browserAuthFormDeps, createLoginForm, prepareAuthForms, type LoginField } from '../../../stores/auth-forms.ts';
import { useT } from '../ui/use-t.ts';
import { FormField, FormMessage, SubmitButton, useFormText } from './FormField.tsx';
import { withLocale } from '../ui/locale-context.tsx';

interface LoginFormProps {
  /** The path to return to (query parameter jumpTo); only a path on this site is followed. */
  jumpTo: string | null;
}

/** Log in with a user name or email and a password, then return to `jumpTo` with a full page load. */
function LoginForm({ jumpTo }: LoginFormProps) {
  const t = useT();
  const text = useFormText();
  const [form] = useState(() => createLoginForm(browserAuthFormDeps(), jumpTo));
  const { values, errors, busy } = useStore(form.$form);
  const returnPath = form.returnPath;

  const change = (field: LoginField) => (event: { currentTarget: HTMLInputElement }) =>
    form.change(field, event.currentTarget.value);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  const registerHref = returnPath === '/' ? '/register' : `/register?jumpTo=${encodeURIComponent(returnPath)}`;

  return (
    <form
      method="post"
      className="mt-6 space-y-4"
      noValidate
      onFocus={prepareAuthForms}
      onSubmit={submit}
      data-testid="login-form"
    >
      <FormField
        label={t('auth.field.account')}
        name="account"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={values.account}
        onChange={change('account')}
        error={text(errors.fields.account)}
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
        error={text(errors.fields.password)}
        disabled={busy}
        required
      />
      <div className="flex justify-end text-sm">
        <a href="/reset-password" className="hk-link">
          {t('auth.login.forgot')}
        </a>
      </div>
      {errors.general && <FormMessage tone="error">{text(errors.general)}</FormMessage>}
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
