import type { UserGroup } from '../../../shared/auth.ts';
import type { NewAnnouncement } from '../../modules/announcement/announcement.tables.ts';

// Original demo content for local trials. Fixed ids and dates keep the seed deterministic.

const at = (day: number, hour = 10) =>
  `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

export const demoAnnouncements: NewAnnouncement[] = [
  {
    id: 'ann-0001',
    title: '欢迎来到 Hikari：Galgame 与轻小说爱好者的新家',
    body: '这里可以整理你玩过的 Galgame、追读中的轻小说，也可以和同好一起写感想、聊剧情。第一次来？先看看新手指南，再去社区规范里了解大家约定好的相处方式。',
    link: '/docs/guide/getting-started',
    pinned: 1,
    published_at: at(1),
    created_at: at(1),
  },
  {
    id: 'ann-0002',
    title: '社区规范 1.0 正式生效',
    body: '经过两周的意见征集，社区规范第一版正式生效。重点提醒：讨论剧情请使用剧透标记，分享资源请注明来源与汉化组，尊重每一位创作者的劳动。',
    link: '/docs/community/community-regulation',
    pinned: 1,
    published_at: at(5, 9),
    created_at: at(5, 9),
  },
  {
    id: 'ann-0003',
    title: 'HikariPoint 积分说明上线',
    body: '每日签到可以获得 1–10 点 HikariPoint，每月最多补签 3 次。积分的获得与消耗都会留下记录，随时可以查账。',
    link: '/docs/guide/hikari-point',
    pinned: 0,
    published_at: at(12, 12),
    created_at: at(12, 12),
  },
  {
    id: 'ann-0004',
    title: '创作者招募：一起把条目写得更好',
    body: '我们正在招募熟悉 Galgame 与轻小说资料的创作者，负责完善作品、角色与制作人员条目。申请时写下你擅长的方向，附上一两份整理过的资料就好。',
    link: '/docs/creator/creator-guide',
    pinned: 0,
    published_at: at(18, 15),
    created_at: at(18, 15),
  },
  {
    id: 'ann-0005',
    title: '深色模式与界面细节更新',
    body: '页头右侧可以在“跟随系统、浅色、深色”三种配色之间切换，你的选择会保存在本机浏览器中，刷新页面也不会闪烁。',
    link: null,
    pinned: 0,
    published_at: at(20, 20),
    created_at: at(20, 20),
  },
];

export interface DemoAccount {
  name: string;
  email: string;
  password: string;
  group: UserGroup;
  hikariPoint: number;
  signature: string;
  bio: string;
  /** A banned account shows what others see of one (its space's notice). */
  banned?: boolean;
}

/** Demo accounts for local trials only (listed in the README). Production sets SEED_DEMO=false. */
export const demoAccounts: DemoAccount[] = [
  {
    name: 'hikari_demo',
    email: 'demo@hikari.local',
    password: 'hikari-demo-2026',
    group: 'user',
    hikariPoint: 120,
    signature: '今天也在推 Galgame 的路上。',
    bio: '喜欢夏日题材与慢热的日常系作品，正在补完经典老作。',
  },
  {
    name: 'hikari_creator',
    email: 'creator@hikari.local',
    password: 'hikari-creator-2026',
    group: 'creator',
    hikariPoint: 360,
    signature: '整理条目是一种快乐。',
    bio: '负责轻小说条目的整理与校对，欢迎私信交流资料来源。',
  },
  {
    name: 'hikari_admin',
    email: 'admin@hikari.local',
    password: 'hikari-admin-2026',
    group: 'superAdmin',
    hikariPoint: 999,
    signature: '维护社区秩序，也维护服务器。',
    bio: 'Hikari 管理员。发现问题请在站务反馈区留言。',
  },
  {
    name: 'hikari_banned',
    email: 'banned@hikari.local',
    password: 'hikari-banned-2026',
    group: 'user',
    hikariPoint: 0,
    signature: '这段签名不会出现在空间里。',
    bio: '',
    banned: true,
  },
  {
    name: 'hikari_editor',
    email: 'editor@hikari.local',
    password: 'hikari-editor-2026',
    group: 'editor',
    hikariPoint: 240,
    signature: '每一条修改都值得认真看一遍。',
    bio: '负责审核条目的更新请求与举报。',
  },
  {
    name: 'hikari_moderator',
    email: 'moderator@hikari.local',
    password: 'hikari-moderator-2026',
    group: 'admin',
    hikariPoint: 300,
    signature: '社区的安静来自大家的自觉。',
    bio: '处理创作者申请、封禁与社区秩序。',
  },
];
