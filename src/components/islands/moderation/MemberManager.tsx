import { useId, useState } from 'react';
import type { UserGroup } from '../../../shared/auth-model.ts';
import {
  ASSIGNABLE_GROUPS,
  BAN_PERIODS,
  MODERATION_REASON_MAX,
  type AssignableGroup,
  type BanPeriod,
} from '../../../shared/moderation/moderation-model.ts';
import type { MemberView } from '../../../shared/moderation/moderation.contract.ts';
import { dateTimeFormat } from '../../../shared/i18n/intl.ts';
import { showsNothing } from '../../../shared/visible-text.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { banMember, findMembers, setMemberGroup, unbanMember } from '../../../stores/moderation.ts';
import { toast } from '../../../stores/toast.ts';
import Avatar from '../display/Avatar.tsx';
import { useImageOptions } from '../media/use-emoji.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const fieldClass =
  'w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900';

/** The ban form of one member: a period (or a custom end) and a reason. */
function BanForm({
  member,
  onDone,
  onCancel,
}: {
  member: MemberView;
  onDone: (m: MemberView) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const ids = { period: useId(), until: useId(), reason: useId() };
  const [period, setPeriod] = useState<BanPeriod>('7d');
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    const problems: Record<string, string> = {};
    if (showsNothing(reason)) problems.reason = t('moderation.members.reasonNeeded');
    if (period === 'custom' && until === '') problems.until = t('moderation.members.untilNeeded');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    if (
      !(await confirmDialog({
        title: t('moderation.confirm.title'),
        message: t('moderation.confirm.ban', { name: member.name }),
      }))
    )
      return;
    setBusy(true);
    try {
      const ban = { period, reason, ...(period === 'custom' ? { until: new Date(until).toISOString() } : {}) };
      onDone(await banMember(member.userId, ban));
      toast.success(t('moderation.members.banned', { name: member.name }));
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      if (Object.keys(fields).length > 0) setErrors(fields);
      else toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-700"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={ids.period} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {t('moderation.members.period')}
      </label>
      <select
        id={ids.period}
        value={period}
        onChange={(e) => setPeriod(e.target.value as BanPeriod)}
        className={fieldClass}
      >
        {BAN_PERIODS.map((option) => (
          <option key={option} value={option}>
            {t(`moderation.period.${option}`)}
          </option>
        ))}
      </select>
      {period === 'custom' && (
        <>
          <label htmlFor={ids.until} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('moderation.members.until')}
          </label>
          <input
            id={ids.until}
            type="datetime-local"
            value={until}
            aria-invalid={errors.until ? true : undefined}
            onChange={(e) => setUntil(e.target.value)}
            className={fieldClass}
          />
          {errors.until && (
            <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
              {errors.until}
            </p>
          )}
        </>
      )}
      <label htmlFor={ids.reason} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {t('moderation.label.reason')}
      </label>
      <textarea
        id={ids.reason}
        rows={2}
        value={reason}
        maxLength={MODERATION_REASON_MAX}
        aria-invalid={errors.reason ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
        className={fieldClass}
      />
      {errors.reason && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {errors.reason}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="hk-btn hk-btn-primary" disabled={busy}>
          {t('moderation.members.confirmBan')}
        </button>
        <button type="button" className="hk-btn hk-btn-ghost" onClick={onCancel}>
          {t('moderation.cancel')}
        </button>
      </div>
    </form>
  );
}

function MemberRow({ member, onChange }: { member: MemberView; onChange: (m: MemberView) => void }) {
  const t = useT();
  const locale = useLocale();
  const imageOptions = useImageOptions();
  const groupId = useId();
  const [banning, setBanning] = useState(false);
  const [group, setGroup] = useState<UserGroup>(member.group);
  const [busy, setBusy] = useState(false);
  const banned = member.status === 'banned';

  const act = async (work: () => Promise<MemberView>, success: string) => {
    if (busy) return;
    setBusy(true);
    try {
      onChange(await work());
      toast.success(success);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const unban = async () => {
    if (
      await confirmDialog({
        title: t('moderation.confirm.title'),
        message: t('moderation.confirm.unban', { name: member.name }),
      })
    )
      await act(() => unbanMember(member.userId), t('moderation.members.unbanned', { name: member.name }));
  };
  const saveGroup = async () => {
    const next = group as AssignableGroup;
    const message = t('moderation.confirm.group', { name: member.name, group: t(`moderation.group.${next}`) });
    if (await confirmDialog({ title: t('moderation.confirm.title'), message }))
      await act(() => setMemberGroup(member.userId, next), t('moderation.members.groupSaved', { name: member.name }));
  };

  return (
    <li className="flex flex-col gap-3 p-4" data-testid="member" data-user-id={member.userId}>
      <div className="flex flex-wrap items-center gap-3">
        <Avatar src={member.avatar} name={member.name} size="large" imageOptions={imageOptions} />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <a href={`/space/${member.userId}`} className="font-medium text-zinc-900 hover:text-accent dark:text-white">
              {member.name}
            </a>
            <span className="text-xs text-zinc-500 dark:text-zinc-400">#{member.userId}</span>
            <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
              {t(`moderation.group.${member.group}`)}
            </span>
            <span
              data-status={member.status}
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${
                banned
                  ? 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200'
                  : 'bg-primary/15 text-accent'
              }`}
            >
              {t(`moderation.memberStatus.${member.status}`)}
            </span>
          </p>
          {banned && (
            <p className="mt-1 text-sm break-words text-zinc-700 dark:text-zinc-300">
              {member.bannedUntil
                ? t('moderation.members.bannedUntil', {
                    date: dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
                      new Date(member.bannedUntil),
                    ),
                  })
                : t('moderation.members.bannedForever')}
              {member.banReason && ` · ${t('moderation.members.reasonShown', { reason: member.banReason })}`}
            </p>
          )}
        </div>
      </div>
      {member.canBan && !banning && (
        <div className="flex flex-wrap gap-2">
          {banned ? (
            <button type="button" className="hk-btn hk-btn-ghost" disabled={busy} onClick={() => void unban()}>
              {t('moderation.action.unban')}
              <span className="sr-only"> {member.name}</span>
            </button>
          ) : null}
          <button type="button" className="hk-btn hk-btn-primary" disabled={busy} onClick={() => setBanning(true)}>
            {banned ? t('moderation.action.changeBan') : t('moderation.action.ban')}
            <span className="sr-only"> {member.name}</span>
          </button>
        </div>
      )}
      {banning && (
        <BanForm
          member={member}
          onCancel={() => setBanning(false)}
          onDone={(next) => {
            setBanning(false);
            onChange(next);
          }}
        />
      )}
      {member.canSetGroup && (
        <div className="flex flex-wrap items-end gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={groupId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('moderation.members.group')}
            </label>
            <select
              id={groupId}
              value={group}
              onChange={(e) => setGroup(e.target.value as UserGroup)}
              className={fieldClass}
            >
              {ASSIGNABLE_GROUPS.map((option) => (
                <option key={option} value={option}>
                  {t(`moderation.group.${option}`)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            disabled={busy || group === member.group}
            onClick={() => void saveGroup()}
          >
            {t('moderation.members.saveGroup')}
          </button>
        </div>
      )}
    </li>
  );
}

/** /create/moderation/users: find a member, see their group and ban, ban or unban; groups for the superAdmin. */
function MemberManager() {
  const t = useT();
  const searchId = useId();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<MemberView[] | null>(null);
  const [busy, setBusy] = useState(false);

  const search = async () => {
    if (q.trim() === '' || busy) return;
    setBusy(true);
    try {
      setFound(await findMembers(q.trim()));
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <form
        role="search"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={searchId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('moderation.members.search')}
          </label>
          <input
            id={searchId}
            type="search"
            value={q}
            maxLength={40}
            placeholder={t('moderation.members.searchHint')}
            onChange={(e) => setQ(e.target.value)}
            className={fieldClass}
          />
        </div>
        <button type="submit" className="hk-btn hk-btn-primary" disabled={busy}>
          {t('moderation.members.find')}
        </button>
      </form>
      {found !== null &&
        (found.length === 0 ? (
          <p role="status" className="hk-card p-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {t('moderation.members.none')}
          </p>
        ) : (
          <ul
            className="hk-card divide-y divide-zinc-200 dark:divide-zinc-700"
            aria-label={t('moderation.members.results')}
          >
            {found.map((member) => (
              <MemberRow
                key={`${member.userId}:${member.status}:${member.group}:${member.bannedUntil ?? ''}`}
                member={member}
                onChange={(next) => setFound((list) => (list ?? []).map((m) => (m.userId === next.userId ? next : m)))}
              />
            ))}
          </ul>
        ))}
    </div>
  );
}

export default withLocale(MemberManager);
