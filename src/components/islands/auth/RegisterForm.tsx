import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import {
  browserAuthFormDeps,
  createRegisterForm,
  prepareAuthForms,
  type RegisterField,
} from '../../../stores/auth-forms.ts';
import { useT } from '../ui/use-t.ts';
import { FormField, FormMessage, NewPasswordFields, SubmitButton, useFormText } from './FormField.tsx';
import { withLocale } from '../ui/locale-context.tsx';

interface RegisterFormProps {
  jumpTo: string | null;
}

/**
 * Registration (spec §3 "Registration fields"): name and email are checked for availability before a
 * code is mailed; registering logs in, then returns to `jumpTo` with a full page load.
 */
function RegisterForm({ jumpTo }: RegisterFormProps) {
  const t = useT();
  const text = useFormText();
  const [form] = useState(() => createRegisterForm(browserAuthFormDeps(), jumpTo));
  const { values, errors, busy, sending, codeRequest } = useStore(form.$form);
  const secondsLeft = useStore(form.$secondsLeft);
  const returnPath = form.returnPath;

  const change = (field: RegisterField) => (event: { currentTarget: HTMLInputElement }) =>
    form.change(field, event.currentTarget.value);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  const loginHref = returnPath === '/' ? '/login' : `/login?jumpTo=${encodeURIComponent(returnPath)}`;
  const codeButtonLabel =
    secondsLeft > 0
      ? t('auth.code.retryIn', { seconds: secondsLeft })
      : sending
        ? t('auth.code.sending')
        : t('auth.code.send');
  const fieldError = (field: RegisterField) => text(errors.fields[field]);

  return (
    <form
      method="post"
      className="mt-6 space-y-4"
      noValidate
      onFocus={prepareAuthForms}
      onSubmit={submit}
      data-testid="register-form"
    >
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
            onClick={() => void form.sendCode()}
            disabled={busy || sending || secondsLeft > 0}
            data-testid="send-code"
          >
            {codeButtonLabel}
          </button>
        }
      />
      {errors.general && <FormMessage tone="error">{text(errors.general)}</FormMessage>}
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
