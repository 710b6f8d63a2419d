import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { BIO_MAX, NAME_MAX, NSFW_MODES, SIGNATURE_MAX, type SessionUser } from '../../../shared/auth-model.ts';
import type { Translate } from '../../../shared/i18n/index.ts';
import type { SessionEntry } from '../../../shared/users/space-model.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $session, hydrateSessionFromCookies, updateSessionUser } from '../../../stores/session.ts';
import {
  changeEmail,
  changePassword,
  loadOwnProfile,
  loadSessions,
  logoutOtherSessions,
  requestEmailCode,
  saveProfile,
} from '../../../stores/space-settings.ts';
import { toast } from '../../../stores/toast.ts';
import { saveUserSetting } from '../../../stores/user-setting.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { FormField } from '../auth/FormField.tsx';
import ImageUploader from '../media/ImageUploader.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

/** The owner's settings on /space/{id}/setting: profile, pictures, preferences, password, email, logins. */

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const fieldsOf = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fieldErrors() : {});
const toastFailed = (t: Translate, error: unknown) =>
  toast.error(t('space.setting.failed', { message: errorText(error) }));

/**
 * A settings form's values, field errors and busy flag. `run` does one action at a time and shows the
 * server's field errors; the failure toast comes for every error, or with `toastFieldErrors: false` only
 * when no field is named. `field(name)` wires a FormField to one value.
 */
function useSettingForm<V extends Record<string, string>>(initial: V, { toastFieldErrors = true } = {}) {
  const t = useT();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    try {
      await action();
    } catch (error) {
      const fields = fieldsOf(error);
      setErrors(fields);
      if (toastFieldErrors || Object.keys(fields).length === 0) toastFailed(t, error);
    } finally {
      setBusy(false);
    }
  };
  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });
  return { values, setValues, busy, run, field };
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="hk-card flex flex-col gap-4 p-4 sm:p-6" data-testid={id}>
      <h2 id={id} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A label above a control FormField does not draw (a textarea, a select). */
function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700 dark:text-zinc-200">
        {label}
      </label>
      {children}
    </div>
  );
}

const textareaClass =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs outline-none focus:border-focus focus:ring-2 focus:ring-focus/30 dark:border-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-100';

function ProfileForm({ user }: { user: SessionUser }) {
  const t = useT();
  const { values, busy, run, field } = useSettingForm({
    name: user.name,
    signature: user.signature,
    bio: user.bio,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const patch = {
        ...(values.name.trim() !== user.name ? { name: values.name.trim() } : {}),
        signature: values.signature,
        bio: values.bio,
      };
      await saveProfile(patch);
      toast.success(t('space.setting.saved'));
    });
  };
  const bio = field('bio');
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormField label={t('space.setting.name')} maxLength={NAME_MAX} autoComplete="username" {...field('name')} />
      <FormField label={t('space.setting.signature')} maxLength={SIGNATURE_MAX} {...field('signature')} />
      <Labelled id="space-bio" label={t('space.setting.bio')}>
        <textarea
          id="space-bio"
          name="bio"
          rows={4}
          maxLength={BIO_MAX}
          value={bio.value}
          aria-invalid={bio.error ? true : undefined}
          className={textareaClass}
          onChange={bio.onChange}
        />
        {bio.error && <p className="text-xs text-red-600 dark:text-red-400">{bio.error}</p>}
      </Labelled>
      <div>
        <button type="submit" className="hk-btn hk-btn-primary" disabled={busy} data-testid="save-profile">
          {t('space.setting.save')}
        </button>
      </div>
    </form>
  );
}

function PictureField({ user, kind }: { user: SessionUser; kind: 'avatar' | 'headCover' }) {
  const t = useT();
  const current = kind === 'avatar' ? user.avatar : user.headCover;
  const save = async (urls: string[]) => {
    const url = urls[0] ?? '';
    if (url === current) return;
    try {
      await saveProfile(kind === 'avatar' ? { avatar: url } : { headCover: url });
      toast.success(t('space.setting.imageSaved'));
    } catch (error) {
      toastFailed(t, error);
    }
  };
  const label = t(kind === 'avatar' ? 'space.setting.avatar' : 'space.setting.headCover');
  return (
    <div className="flex flex-col gap-2" data-testid={`picture-${kind}`}>
      <p className="text-sm font-medium text-zinc-700 dark:text-zinc-200">{label}</p>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {t(kind === 'avatar' ? 'space.setting.avatarHint' : 'space.setting.headCoverHint')}
      </p>
      <ImageUploader
        target={{ type: kind === 'avatar' ? 'avatar' : 'head_cover', id: user.userId }}
        mode="single"
        size={kind === 'avatar' ? 140 : 240}
        initial={current ? [current] : []}
        onChange={(urls) => void save(urls)}
        label={label}
      />
    </div>
  );
}

function Preferences({ user }: { user: SessionUser }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const save = async (patch: Parameters<typeof saveUserSetting>[0]) => {
    setBusy(true);
    try {
      const next = await saveUserSetting(patch);
      toast.success(t('space.setting.prefSaved'));
      // The interface language is chosen per page load: show the new one at once.
      if (patch.locale && patch.locale !== user.userSetting.locale && next.locale === patch.locale) location.reload();
    } catch (error) {
      toastFailed(t, error);
    } finally {
      setBusy(false);
    }
  };
  const setting = user.userSetting;
  return (
    <div className="flex flex-col gap-5">
      <Labelled id="space-locale" label={t('space.setting.locale')}>
        <select
          id="space-locale"
          className="h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100"
          value={setting.locale}
          disabled={busy}
          onChange={(event) => void save({ locale: event.target.value === 'en' ? 'en' : 'zh-CN' })}
        >
          <option value="zh-CN" lang="zh-CN">
            简体中文
          </option>
          <option value="en" lang="en">
            English
          </option>
        </select>
      </Labelled>
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium text-zinc-700 dark:text-zinc-200">
          {t('space.setting.nsfw')}
        </legend>
        <div className="flex flex-wrap gap-4">
          {NSFW_MODES.map((mode) => (
            <label key={mode} className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <input
                type="radio"
                name="nsfw"
                value={mode}
                checked={setting.nsfw === mode}
                disabled={busy}
                className="accent-[#1d716b]"
                onChange={() => void save({ nsfw: mode })}
              />
              {t(`space.setting.nsfw.${mode}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-start gap-3 text-sm text-zinc-700 dark:text-zinc-300">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-[#1d716b]"
          checked={setting.emailNotifications}
          disabled={busy}
          onChange={(event) => void save({ emailNotifications: event.target.checked })}
        />
        <span>
          <span className="block font-medium">{t('space.setting.email')}</span>
          <span className="block text-xs text-zinc-500 dark:text-zinc-400">{t('space.setting.emailHint')}</span>
        </span>
      </label>
    </div>
  );
}

function PasswordForm() {
  const t = useT();
  const empty = { oldPassword: '', newPassword: '' };
  const { values, setValues, busy, run, field } = useSettingForm(empty, { toastFieldErrors: false });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await changePassword(values.oldPassword, values.newPassword);
      setValues(empty);
      toast.success(t('space.setting.passwordChanged'));
    });
  };
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <h3 className="text-sm font-semibold text-zinc-800 dark:text-zinc-200">{t('space.setting.password')}</h3>
      <FormField
        label={t('space.setting.oldPassword')}
        type="password"
        autoComplete="current-password"
        {...field('oldPassword')}
      />
      <FormField
        label={t('space.setting.newPassword')}
        type="password"
        autoComplete="new-password"
        {...field('newPassword')}
      />
      <div>
        <button type="submit" className="hk-btn hk-btn-ghost" disabled={busy}>
          {t('space.setting.changePassword')}
        </button>
      </div>
    </form>
  );
}

function EmailForm({ user }: { user: SessionUser }) {
  const t = useT();
  const empty = { email: '', password: '', code: '' };
  const { values, setValues, busy, run, field } = useSettingForm(empty, { toastFieldErrors: false });
  const [uuid, setUuid] = useState<string | null>(null);
  const send = () =>
    run(async () => {
      setUuid(await requestEmailCode(values.email, values.password));
      toast.success(t('space.setting.codeSent', { email: values.email.trim() }));
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!uuid) return void send();
    void run(async () => {
      await changeEmail(values.email, values.code, uuid);
      setValues(empty);
      setUuid(null);
      toast.success(t('space.setting.emailChanged'));
    });
  };
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <h3 className="text-sm font-semibold text-zinc-800 dark:text-zinc-200">{t('space.setting.emailChange')}</h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="current-email">
        {t('space.setting.currentEmail', { email: user.email })}
      </p>
      <FormField label={t('space.setting.newEmail')} type="email" autoComplete="email" {...field('email')} />
      <FormField
        label={t('space.setting.emailPassword')}
        type="password"
        autoComplete="current-password"
        {...field('password')}
        trailing={
          <button type="button" className="hk-btn hk-btn-ghost shrink-0" disabled={busy} onClick={() => void send()}>
            {t('space.setting.sendCode')}
          </button>
        }
      />
      {uuid && (
        <FormField
          label={t('space.setting.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          {...field('code')}
        />
      )}
      {uuid && (
        <div>
          <button type="submit" className="hk-btn hk-btn-ghost" disabled={busy}>
            {t('space.setting.changeEmail')}
          </button>
        </div>
      )}
    </form>
  );
}

/** "Chrome · Windows", or what is known of it. */
function deviceLabel(t: ReturnType<typeof useT>, device: SessionEntry['device']): string {
  if (!device || (!device.browser && !device.os)) return t('space.setting.unknownDevice');
  if (device.browser && device.os) return t('space.setting.device', { browser: device.browser, os: device.os });
  return device.browser ?? device.os ?? '';
}

function Sessions() {
  const t = useT();
  const locale = useLocale();
  const [items, setItems] = useState<SessionEntry[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    try {
      setItems((await loadSessions()).items);
      setFailed(null);
    } catch (error) {
      setFailed(errorText(error));
    }
  };
  useEffect(() => {
    void load();
  }, []);
  const logoutOthers = async () => {
    if (busy || !(await confirmDialog(t('space.setting.logoutOthersConfirm')))) return;
    setBusy(true);
    try {
      const count = await logoutOtherSessions();
      toast.success(t('space.setting.loggedOutOthers', { count }));
      await load();
    } catch (error) {
      toastFailed(t, error);
    } finally {
      setBusy(false);
    }
  };
  const now = Date.now();
  const others = items?.filter((item) => !item.current).length ?? 0;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('space.setting.sessionsHint')}</p>
      {failed && (
        <p className="text-sm text-red-600 dark:text-red-400">{t('space.setting.loadFailed', { message: failed })}</p>
      )}
      {!items && !failed && <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('space.setting.loading')}</p>}
      {items && (
        <ul className="flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="session-list">
          {items.map((item) => (
            <li
              key={item.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5"
              data-current={item.current}
            >
              <span
                className={`rounded px-2 py-0.5 text-xs font-medium ${item.current ? 'bg-accent-strong text-on-accent' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'}`}
              >
                {t(item.current ? 'space.setting.sessionCurrent' : 'space.setting.sessionOther')}
              </span>
              <span className="text-sm font-medium text-zinc-900 dark:text-zinc-100" data-testid="session-device">
                {deviceLabel(t, item.device)}
              </span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">
                {t('space.setting.session', {
                  created: timeAgo(item.createdAt, now, locale),
                  active: timeAgo(item.lastActiveAt, now, locale),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {items && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            disabled={busy || others === 0}
            onClick={() => void logoutOthers()}
            data-testid="logout-others"
          >
            {t('space.setting.logoutOthers')}
          </button>
          {others === 0 && (
            <span className="text-xs text-zinc-500 dark:text-zinc-400">{t('space.setting.noOthers')}</span>
          )}
        </div>
      )}
    </div>
  );
}

function SpaceSettings({ userId }: { userId: number }) {
  const t = useT();
  const session = useStore($session);
  const [profile, setProfile] = useState<SessionUser | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!$session.get()) hydrateSessionFromCookies();
    loadOwnProfile().then(
      (fresh) => {
        // The session (and the cookie pages render from) takes the stored profile, bio included.
        const { bio, name, avatar, headCover, signature, email, userSetting } = fresh;
        updateSessionUser({ bio, name, avatar, headCover, signature, email, userSetting });
        setProfile(fresh);
      },
      (error: unknown) => setFailed(errorText(error)),
    );
  }, []);
  if (failed) {
    return (
      <p className="hk-card p-6 text-sm text-red-600 dark:text-red-400" role="alert">
        {t('space.setting.loadFailed', { message: failed })}
      </p>
    );
  }
  if (!profile || !session || profile.userId !== userId) {
    return <p className="hk-card p-6 text-sm text-zinc-500 dark:text-zinc-400">{t('space.setting.loading')}</p>;
  }
  // The session follows every save made here.
  const user = session;
  return (
    <div className="flex flex-col gap-4" data-testid="space-settings">
      <Card id="setting-profile" title={t('space.setting.profile')}>
        <ProfileForm user={user} />
      </Card>
      <Card id="setting-images" title={t('space.setting.images')}>
        <div className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
          <PictureField user={user} kind="avatar" />
          <PictureField user={user} kind="headCover" />
        </div>
      </Card>
      <Card id="setting-preferences" title={t('space.setting.preferences')}>
        <Preferences user={user} />
      </Card>
      <Card id="setting-security" title={t('space.setting.security')}>
        <div className="grid gap-8 md:grid-cols-2">
          <PasswordForm />
          <EmailForm user={user} />
        </div>
      </Card>
      <Card id="setting-sessions" title={t('space.setting.sessions')}>
        <Sessions />
      </Card>
    </div>
  );
}

export default withLocale(SpaceSettings);
