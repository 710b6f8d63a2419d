import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../shared/auth.ts';
import { HeaderActions } from './HeaderActions.tsx';
import { NotificationBell, UserMenu, unreadBadgeText, userMenuEntries } from './UserMenu.tsx';

const user = {
  _id: 'u1',
  isLogin: true,
  userId: 7,
  name: '小光',
  avatar: '',
  hikariPoint: 1234,
  hikariUserGroup: 'user',
  userSetting: { locale: 'zh-CN', nsfw: 'blur', emailNotifications: true },
} as SessionUser;

const everything = () => true;
const nothing = () => false;

describe('userMenuEntries', () => {
  it('lists creator centre, creator application and the homepage when their pages exist', () => {
    expect(userMenuEntries(user, everything).map((e) => e.href)).toEqual([
      '/create/home',
      '/creator-application',
      '/space/7',
    ]);
  });

  it('hides the creator application for the creator group only', () => {
    const hrefs = (group: SessionUser['hikariUserGroup']) =>
      userMenuEntries({ userId: 7, hikariUserGroup: group }, everything).map((e) => e.href);
    expect(hrefs('creator')).not.toContain('/creator-application');
    expect(hrefs('admin')).toContain('/creator-application');
    expect(hrefs('user')).toContain('/creator-application');
  });

  it('leaves out pages that are not built', () => {
    expect(userMenuEntries(user, (path) => path.startsWith('/space/')).map((e) => e.id)).toEqual(['homepage']);
    // Every page of the menu is built: the creator centre, the application and the space.
    expect(userMenuEntries(user).map((e) => e.href)).toEqual(['/create/home', '/creator-application', '/space/7']);
  });
});

describe('unreadBadgeText', () => {
  it('is hidden at 0 and capped at 99', () => {
    expect(unreadBadgeText(0)).toBeNull();
    expect(unreadBadgeText(-3)).toBeNull();
    expect(unreadBadgeText(Number.NaN)).toBeNull();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
  });
});

describe('header pieces (server render)', () => {
  it('renders the avatar button closed, with the menu semantics', () => {
    const html = renderToStaticMarkup(createElement(UserMenu, { user, isBuilt: everything }));
    expect(html).toContain('aria-haspopup="menu"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-label="用户菜单"');
    expect(html).not.toContain('role="menu"');
  });

  it('shows the bell only when the system messages page exists, with a badge above 0', () => {
    expect(renderToStaticMarkup(createElement(NotificationBell, { unreadCount: 5, isBuilt: nothing }))).toBe('');
    const zero = renderToStaticMarkup(createElement(NotificationBell, { isBuilt: everything }));
    expect(zero).toContain('href="/message/system"');
    expect(zero).not.toContain('header-bell-badge');
    const many = renderToStaticMarkup(createElement(NotificationBell, { unreadCount: 150, isBuilt: everything }));
    expect(many).toContain('>99+</span>');
    // Unread private messages count too; with no notification unread, the bell opens the chats.
    const chats = renderToStaticMarkup(createElement(NotificationBell, { privateUnread: 2, isBuilt: everything }));
    expect(chats).toContain('href="/message/private"');
    expect(chats).toContain('>2</span>');
    const both = renderToStaticMarkup(
      createElement(NotificationBell, { unreadCount: 1, privateUnread: 2, isBuilt: everything }),
    );
    expect(both).toContain('href="/message/system"');
    expect(both).toContain('>3</span>');
  });

  it('shows the user menu instead of the login buttons when logged in', () => {
    const labels = { login: '登录', register: '注册' };
    const visitor = renderToStaticMarkup(createElement(HeaderActions, { showLogin: true, labels, user: null }));
    expect(visitor).toContain('href="/login"');
    expect(visitor).not.toContain('user-menu');
    const member = renderToStaticMarkup(createElement(HeaderActions, { showLogin: true, labels, user }));
    expect(member).toContain('data-testid="user-menu"');
    expect(member).toContain('color-mode-toggle');
    expect(member).not.toContain('href="/login"');
    // The copy of a page all members share: logged in, nobody in particular until hydrated.
    const shared = renderToStaticMarkup(createElement(HeaderActions, { showLogin: true, labels, user: 'member' }));
    expect(shared).toContain('data-testid="user-menu-placeholder"');
    expect(shared).not.toContain('data-testid="user-menu"');
    expect(shared).not.toContain('href="/login"');
  });
});
