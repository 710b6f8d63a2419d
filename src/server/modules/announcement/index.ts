import { defineModule } from '../module.ts';

/** Site announcements, read by the home page through `announcement.service.ts`. */
export const announcementModule = defineModule({ name: 'announcement' });
