import { computed, map } from 'nanostores';
import { CODE_RESEND_SECONDS, type CodeRequestData, type SessionData } from '../shared/auth-model.ts';
import type * as authRules from '../shared/auth.ts';
import { ApiError, api, loadAuthContract, type ApiClient } from './api-client.ts';
import { NO_ERRORS, formErrorsFrom, zodFieldErrors, type FormErrors, type FormText } from './auth-form-errors.ts';
import { createCountdown } from './countdown.ts';
import { t } from './locale.ts';
import { carryToast } from './next-page-toast.ts';
import { safeReturnPath, startSession } from './session.ts';

/**
 * Client logic of the login, register and reset-password forms: each flow is a store owning the
 * fields, the checks before sending, the submitting state, the resend countdown, the server's errors
 * and the API calls. The form islands render a flow's stores and forward the person's input to it.
 */

type AuthRules = typeof authRules;
type AuthContract = Awaited<ReturnType<typeof loadAuthContract>>;

/**
 * The field rules and the auth contract are zod schemas: they load when a form is first focused
 * (`prepareAuthForms`) or sent, not with the page. Once here, a form checks and sends at once.
 */
let loaded: { rules: AuthRules; contract: AuthContract } | null = null;
export async function loadAuthFormRules(): Promise<{ rules: AuthRules; contract: AuthContract }> {
  if (loaded) return loaded;
  const [rules, contract] = await Promise.all([import('../shared/auth.ts'), loadAuthContract()]);
  loaded = { rules, contract };
  return loaded;
}

/** Starts loading what sending a form needs; a failure here is retried (and reported) on sending. */
export function prepareAuthForms(): void {
  loadAuthFormRules().catch(() => {});
}

export type AuthFormsClient = Pick<ApiClient, 'call'>;

export interface AuthFormDeps {
  client: AuthFormsClient;
  startSession: (data: SessionData) => void;
  /** A full page load, so every island (and the server-rendered header) starts with the session. */
  assign: (url: string) => void;
  /** Greets a new member on the page the registration leads to. */
  welcome: (name: string) => void;
}

/** The wait a code answer asks for, or the usual one. */
const resendWait = (data: CodeRequestData) => (data.resendAfter > 0 ? data.resendAfter : CODE_RESEND_SECONDS);

/** A refused code request still says how long to wait. */
function cooldownOf(error: unknown): number | null {
  return error instanceof ApiError && error.code === 'CODE_COOLDOWN' ? (error.retryAfter ?? CODE_RESEND_SECONDS) : null;
}

/** The address a code request goes to, as the server stores it. */
const sameAddress = (typed: string, sentTo: string) => typed.trim().toLowerCase() === sentTo;

/** Field errors with the one of `field` cleared (the person is fixing it). */
const clearField = (errors: FormErrors, field: string): FormErrors => ({
  general: errors.general,
  fields: { ...errors.fields, [field]: undefined },
});

const hasErrors = (fields: FormErrors['fields']) => Object.values(fields).some(Boolean);

/** The confirmation must repeat the password; a field rule's own problem is shown first. */
function withConfirmCheck(fields: FormErrors['fields'], password: string, confirm: string): FormErrors['fields'] {
  if (confirm !== password && !fields.confirm) return { ...fields, confirm: { key: 'auth.error.passwordMismatch' } };
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// Login

export const LOGIN_FIELDS = ['account', 'password'] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];

export interface LoginState {
  values: Record<LoginField, string>;
  errors: FormErrors;
  busy: boolean;
}

/** Log in with a user name or email and a password, then return to `jumpTo` with a full page load. */
export function createLoginForm(deps: AuthFormDeps, jumpTo: string | null) {
  const $form = map<LoginState>({ values: { account: '', password: '' }, errors: NO_ERRORS, busy: false });
  const returnPath = safeReturnPath(jumpTo);
  return {
    $form,
    returnPath,
    change(field: LoginField, value: string): void {
      const { values, errors } = $form.get();
      $form.set({ ...$form.get(), values: { ...values, [field]: value }, errors: clearField(errors, field) });
    },
    async submit(): Promise<void> {
      const {
        rules: { loginSchema },
        contract: authContract,
      } = loaded ?? (await loadAuthFormRules());
      const state = $form.get();
      if (state.busy) return;
      const parsed = loginSchema.safeParse(state.values);
      if (!parsed.success) {
        $form.setKey('errors', { fields: zodFieldErrors(parsed.error), general: null });
        return;
      }
      $form.set({ ...state, errors: NO_ERRORS, busy: true });
      try {
        const { data } = await deps.client.call(authContract.login, { body: parsed.data });
        deps.startSession(data);
        // Stays busy: the page is going away.
        deps.assign(returnPath);
      } catch (error) {
        $form.set({ ...$form.get(), errors: formErrorsFrom(error, LOGIN_FIELDS), busy: false });
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Register

export const REGISTER_FIELDS = ['name', 'email', 'password', 'confirm', 'code'] as const;
export type RegisterField = (typeof REGISTER_FIELDS)[number];

export interface RegisterState {
  values: Record<RegisterField, string>;
  errors: FormErrors;
  busy: boolean;
  /** A code request is out. */
  sending: boolean;
  /** The code request this form holds, and the address it went to. */
  codeRequest: { uuid: string; email: string } | null;
}

/**
 * Registration (spec §3 "Registration fields"): name and email are checked for availability before a
 * code is mailed; registering logs in, then returns to `jumpTo` with a full page load.
 */
export function createRegisterForm(deps: AuthFormDeps, jumpTo: string | null) {
  const $form = map<RegisterState>({
    values: { name: '', email: '', password: '', confirm: '', code: '' },
    errors: NO_ERRORS,
    busy: false,
    sending: false,
    codeRequest: null,
  });
  const countdown = createCountdown();
  const returnPath = safeReturnPath(jumpTo);
  const fail = (errors: FormErrors) => $form.setKey('errors', errors);

  return {
    $form,
    $secondsLeft: countdown.$secondsLeft,
    returnPath,
    change(field: RegisterField, value: string): void {
      const { values, errors } = $form.get();
      $form.set({ ...$form.get(), values: { ...values, [field]: value }, errors: clearField(errors, field) });
    },
    async sendCode(): Promise<void> {
      const {
        rules: { signupCheckSchema },
        contract: authContract,
      } = loaded ?? (await loadAuthFormRules());
      const { values, sending } = $form.get();
      if (sending || countdown.left() > 0) return;
      const check = signupCheckSchema.safeParse({ name: values.name, email: values.email });
      if (!check.success) return fail({ fields: zodFieldErrors(check.error), general: null });
      $form.set({ ...$form.get(), errors: NO_ERRORS, sending: true });
      try {
        const { data: availability } = await deps.client.call(authContract.signupCheck, { body: check.data });
        const taken: Partial<Record<RegisterField, FormText>> = {};
        if (!availability.name.available) taken.name = { key: 'auth.error.nameTaken' };
        if (!availability.email.available) taken.email = { key: 'auth.error.emailTaken' };
        if (hasErrors(taken)) return fail({ fields: taken, general: null });
        const { data } = await deps.client.call(authContract.codeRequest, {
          body: { email: check.data.email, type: 'register' },
        });
        $form.setKey('codeRequest', { uuid: data.uuid, email: check.data.email });
        countdown.start(resendWait(data));
      } catch (error) {
        const wait = cooldownOf(error);
        if (wait !== null) countdown.start(wait);
        fail(formErrorsFrom(error, REGISTER_FIELDS));
      } finally {
        $form.setKey('sending', false);
      }
    },
    async submit(): Promise<void> {
      const {
        rules: { registerSchema },
        contract: authContract,
      } = loaded ?? (await loadAuthFormRules());
      const state = $form.get();
      if (state.busy) return;
      const { values, codeRequest } = state;
      // A code mailed to another address than the one now typed cannot match.
      const uuid = codeRequest && sameAddress(values.email, codeRequest.email) ? codeRequest.uuid : '';
      const parsed = registerSchema.safeParse({
        name: values.name,
        email: values.email,
        password: values.password,
        code: values.code,
        uuid,
      });
      const fields = withConfirmCheck(
        parsed.success ? {} : zodFieldErrors(parsed.error),
        values.password,
        values.confirm,
      );
      if (!parsed.success || hasErrors(fields)) return fail({ fields, general: null });
      $form.set({ ...state, errors: NO_ERRORS, busy: true });
      try {
        const { data } = await deps.client.call(authContract.register, { body: parsed.data });
        deps.startSession(data);
        deps.welcome(data.user.name);
        deps.assign(returnPath);
      } catch (error) {
        $form.set({ ...$form.get(), errors: formErrorsFrom(error, REGISTER_FIELDS), busy: false });
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Reset password

export type ResetStep = 'email' | 'reset' | 'done';
export const RESET_EMAIL_FIELDS = ['email'] as const;
export const RESET_FIELDS = ['code', 'password', 'confirm'] as const;
export type ResetField = (typeof RESET_FIELDS)[number];

export interface ResetState {
  step: ResetStep;
  email: string;
  /** The address the code went to, as the server normalised it, and the request id. */
  request: { email: string; uuid: string } | null;
  values: Record<ResetField, string>;
  errors: FormErrors;
  busy: boolean;
}

const EMPTY_RESET_VALUES: Record<ResetField, string> = { code: '', password: '', confirm: '' };

/** Password reset in two steps: a code mailed to the address, then the code and a new password. */
export function createResetPasswordForm(deps: Pick<AuthFormDeps, 'client'>) {
  const $form = map<ResetState>({
    step: 'email',
    email: '',
    request: null,
    values: EMPTY_RESET_VALUES,
    errors: NO_ERRORS,
    busy: false,
  });
  const countdown = createCountdown();
  /** The resend wait belongs to the address the code went to; another address may ask at once. */
  const $emailCooldown = computed([$form, countdown.$secondsLeft], (form, seconds) =>
    form.request && sameAddress(form.email, form.request.email) ? seconds : 0,
  );

  async function requestCode(address: string): Promise<boolean> {
    const {
      rules: { resetCodeSchema },
      contract: authContract,
    } = loaded ?? (await loadAuthFormRules());
    // Another request may have started while the rules loaded.
    if ($form.get().busy) return false;
    const parsed = resetCodeSchema.safeParse({ email: address });
    if (!parsed.success) {
      $form.setKey('errors', { fields: zodFieldErrors(parsed.error), general: null });
      return false;
    }
    $form.set({ ...$form.get(), errors: NO_ERRORS, busy: true });
    try {
      const { data } = await deps.client.call(authContract.resetPasswordCode, { body: parsed.data });
      $form.set({ ...$form.get(), request: { email: parsed.data.email, uuid: data.uuid }, busy: false });
      countdown.start(resendWait(data));
      return true;
    } catch (error) {
      const wait = cooldownOf(error);
      if (wait !== null) countdown.start(wait);
      const shown = $form.get().step === 'email' ? RESET_EMAIL_FIELDS : RESET_FIELDS;
      $form.set({ ...$form.get(), errors: formErrorsFrom(error, shown), busy: false });
      return false;
    }
  }

  return {
    $form,
    $secondsLeft: countdown.$secondsLeft,
    $emailCooldown,
    changeEmail(value: string): void {
      $form.set({ ...$form.get(), email: value, errors: NO_ERRORS });
    },
    change(field: ResetField, value: string): void {
      const { values, errors } = $form.get();
      $form.set({ ...$form.get(), values: { ...values, [field]: value }, errors: clearField(errors, field) });
    },
    /** Step one: mail a code to the typed address, then ask for the code and the new password. */
    async submitEmail(): Promise<void> {
      const { busy, email, request } = $form.get();
      if (busy) return;
      if (request && sameAddress(email, request.email) && countdown.left() > 0) return;
      if (await requestCode(email)) $form.setKey('step', 'reset');
    },
    /** Step two's "send again": the address the first code went to. */
    async resendCode(): Promise<void> {
      const { busy, request, email } = $form.get();
      if (busy || countdown.left() > 0) return;
      await requestCode(request?.email ?? email);
    },
    async submitReset(): Promise<void> {
      const {
        rules: { resetPasswordSchema },
        contract: authContract,
      } = loaded ?? (await loadAuthFormRules());
      const state = $form.get();
      if (state.busy || !state.request) return;
      const { values, request } = state;
      const parsed = resetPasswordSchema.safeParse({
        email: request.email,
        code: values.code,
        uuid: request.uuid,
        password: values.password,
      });
      const fields = withConfirmCheck(
        parsed.success ? {} : zodFieldErrors(parsed.error),
        values.password,
        values.confirm,
      );
      if (!parsed.success || hasErrors(fields)) {
        $form.setKey('errors', { fields, general: parsed.success ? null : (fields.email ?? null) });
        return;
      }
      $form.set({ ...state, errors: NO_ERRORS, busy: true });
      try {
        await deps.client.call(authContract.resetPassword, { body: parsed.data });
        $form.set({ ...$form.get(), step: 'done', busy: false });
      } catch (error) {
        $form.set({ ...$form.get(), errors: formErrorsFrom(error, RESET_FIELDS), busy: false });
      }
    },
    /** Back to step one, to send the code to another address. */
    backToEmail(): void {
      $form.set({ ...$form.get(), step: 'email', values: EMPTY_RESET_VALUES, errors: NO_ERRORS });
    },
  };
}

export type LoginForm = ReturnType<typeof createLoginForm>;
export type RegisterForm = ReturnType<typeof createRegisterForm>;
export type ResetPasswordForm = ReturnType<typeof createResetPasswordForm>;

/** What the forms use in the browser. */
export function browserAuthFormDeps(): AuthFormDeps {
  return {
    client: api,
    startSession,
    assign: (url) => window.location.assign(url),
    welcome: (name) =>
      carryToast(window.sessionStorage, { type: 'success', message: t('auth.register.welcome', { name }) }),
  };
}
