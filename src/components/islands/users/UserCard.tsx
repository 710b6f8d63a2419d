import { useStore } from '@nanostores/react';
import * as Popover from '@radix-ui/react-popover';
import { useEffect, useMemo, type KeyboardEvent } from 'react';
import { isPageBuilt } from '../../../shared/navigation.ts';
import { userFollows, userKey } from '../../../stores/follow.ts';
import { $publicConfig } from '../../../stores/public-config.ts';
import { openChatWindow } from '../../../stores/chat-window.ts';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import { userCard, type UserCardState } from '../../../stores/user-card.ts';
import { profiles } from '../../../stores/user-profiles.ts';
import Avatar from '../display/Avatar.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import FollowButton from './FollowButton.tsx';
import { cardFocusables, nextTabbable, USER_CARD_ID } from './user-card-triggers.ts';

const spacePath = (userId: number) => `/space/${userId}`;

/**
 * The user card of spec §2.6, beside the name or avatar it was opened from: avatar, name, signature, the
 * four counts, the follow button and the profile (in a new tab, once the space pages exist). A
 * non-modal dialog: it takes no focus when it opens; Tab from the name enters it, Tab past its end goes
 * on to what follows the name, Shift+Tab from its start goes back to the name, Escape closes it.
 * Loaded with the first card a page opens.
 */
export function UserCard({ state }: { state: UserCardState<HTMLElement> }) {
  const t = useT();
  const locale = useLocale();
  const { anchor, userId } = state;
  const profile = useStore(profiles.$profiles)[userKey(userId)];
  const follow = useStore(userFollows.$userFollows)[userKey(userId)];
  const config = useStore($publicConfig);
  const session = useStore($session);
  const loggedIn = session !== null;
  const virtualRef = useMemo(() => ({ current: anchor }), [anchor]);
  // The name says that its card is open (screen readers announce it on the focused name).
  useEffect(() => {
    anchor.setAttribute('aria-expanded', 'true');
    anchor.setAttribute('aria-controls', USER_CARD_ID);
    return () => {
      anchor.removeAttribute('aria-expanded');
      anchor.removeAttribute('aria-controls');
    };
  }, [anchor]);
  const imageOptions = { imageBedUrl: config.imageBedUrl, allowedHosts: config.imageAllowedHosts };
  const user = profile?.status === 'ready' ? profile.user : null;
  const number = new Intl.NumberFormat(locale);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab') return;
    const focusables = cardFocusables();
    const active = document.activeElement;
    if (event.shiftKey && active === focusables[0]) {
      event.preventDefault();
      anchor.focus();
    } else if (!event.shiftKey && active === focusables.at(-1)) {
      event.preventDefault();
      userCard.close();
      (nextTabbable(anchor) ?? anchor).focus();
    }
  };

  const stats = user && [
    { key: 'following', label: t('userCard.stat.following'), value: user.followingCount },
    { key: 'followers', label: t('userCard.stat.followers'), value: follow?.count ?? user.followerCount },
    { key: 'articles', label: t('userCard.stat.articles'), value: user.articleCount },
    { key: 'posts', label: t('userCard.stat.posts'), value: user.postCount },
  ];
  const name = user?.name ?? anchor.textContent?.trim() ?? '';

  // Spec §2.6, §5: the private-message action opens the chat window (modal mode) over the page.
  const startChat = () => {
    if (!user) return;
    if (!session) toast.warning(t('userCard.messageLogin'));
    else if (session.userId === user.userId) toast.warning(t('userCard.messageSelf'));
    else {
      userCard.close();
      openChatWindow({ _id: user.userId, name: user.name, avatar: user.avatar });
    }
  };

  return (
    <Popover.Root open onOpenChange={(open) => !open && userCard.close()}>
      <Popover.Anchor virtualRef={virtualRef} />
      <Popover.Portal>
        <Popover.Content
          id={USER_CARD_ID}
          side="bottom"
          align="start"
          sideOffset={6}
          collisionPadding={8}
          aria-label={t('userCard.label', { name })}
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => {
            if (event.defaultPrevented) return;
            if ((event.target as Node | null) && document.getElementById(USER_CARD_ID)?.contains(event.target as Node))
              anchor.focus();
          }}
          onPointerDownOutside={(event) => {
            if (anchor.contains(event.target as Node)) event.preventDefault();
          }}
          onFocusOutside={(event) => {
            if (anchor.contains(event.target as Node)) event.preventDefault();
          }}
          onPointerEnter={() => userCard.enterCard()}
          onPointerLeave={(event) => {
            if (event.pointerType !== 'touch' && !anchor.contains(event.relatedTarget as Node | null))
              userCard.leaveCard();
          }}
          onKeyDown={onKeyDown}
          className="z-[1000] w-72 max-w-[calc(100vw-16px)] rounded-xl border border-zinc-200 bg-white p-4 text-sm shadow-xl outline-none dark:border-zinc-700 dark:bg-zinc-900"
          data-testid="user-card"
        >
          {!user && profile?.status === 'error' ? (
            <div className="flex flex-col items-start gap-2" role="alert">
              <p className="text-rose-700 dark:text-rose-400">{t('userCard.failed', { message: profile.message })}</p>
              <button
                type="button"
                className="hk-btn hk-btn-ghost h-8 px-3 text-xs"
                onClick={() => void profiles.load(userId)}
              >
                {t('userCard.retry')}
              </button>
            </div>
          ) : !user ? (
            <div className="flex items-center gap-3" aria-busy="true">
              <span className="size-12 shrink-0 animate-pulse rounded-full bg-zinc-100 dark:bg-zinc-800" />
              <span className="text-zinc-600 dark:text-zinc-400">{t('userCard.loading')}</span>
            </div>
          ) : (
            <div className="flex flex-col gap-3">
              <div className="flex min-w-0 items-center gap-3">
                <Avatar src={user.avatar} name="" size="large" imageOptions={imageOptions} />
                <div className="min-w-0 flex-1">
                  <p
                    className="truncate text-base font-semibold text-zinc-900 dark:text-zinc-100"
                    data-i18n-content
                    data-testid="user-card-name"
                  >
                    {user.name}
                  </p>
                  <p className="line-clamp-2 text-xs break-words text-zinc-600 dark:text-zinc-400" data-i18n-content>
                    {user.signature || t('userCard.noSignature')}
                  </p>
                </div>
              </div>
              <dl className="grid grid-cols-4 gap-1 text-center" data-testid="user-card-stats">
                {stats?.map((stat) => (
                  <div key={stat.key} className="flex flex-col-reverse" data-testid={`user-card-${stat.key}`}>
                    <dt className="text-xs text-zinc-600 dark:text-zinc-400">{stat.label}</dt>
                    <dd className="font-semibold text-zinc-900 tabular-nums dark:text-zinc-100">
                      {number.format(stat.value)}
                    </dd>
                  </div>
                ))}
              </dl>
              <div className="flex items-center gap-2">
                <FollowButton
                  userId={user.userId}
                  initialFollowerCount={user.followerCount}
                  initialLoggedIn={loggedIn}
                  size="small"
                  locale={locale}
                />
                <button
                  type="button"
                  onClick={startChat}
                  aria-haspopup="dialog"
                  className="hk-btn hk-btn-ghost h-8 gap-1 px-3 text-xs"
                  data-testid="user-card-message"
                >
                  <Icon name="message-circle" className="size-3.5" />
                  {t('userCard.message')}
                </button>
                {isPageBuilt(spacePath(user.userId)) && (
                  <a
                    href={spacePath(user.userId)}
                    target="_blank"
                    rel="noopener"
                    className="hk-btn hk-btn-ghost h-8 gap-1 px-3 text-xs"
                    data-testid="user-card-profile"
                  >
                    {t('userCard.profile')}
                    <Icon name="external-link" className="size-3.5" />
                    <span className="sr-only">{t('userCard.newTab')}</span>
                  </a>
                )}
              </div>
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
