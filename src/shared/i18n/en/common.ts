import type { AreaMessages } from '../message.ts';
import type { common as reference } from '../zh-CN/common.ts';

/** English messages of the common area. */
export const common: AreaMessages<typeof reference> = {
  'site.name': 'Hikari',
  'site.tagline': 'A community for Galgame and light-novel fans',
  'site.description':
    'Hikari is a community for Galgame and light-novel fans: a catalogue, a reader, discussions and creation.',

  'footer.docs': 'Docs',
  'footer.rules': 'Community rules',
  'footer.privacy': 'Privacy policy',
  'footer.terms': 'Terms of service',
  'footer.friendLinks': 'Friend links',
  'footer.links': 'Site links',
  'footer.language': 'Interface language',
  'footer.copyright': '© {year} Hikari · built with love',

  'colorMode.system': 'System',
  'colorMode.light': 'Light',
  'colorMode.dark': 'Dark',
  'colorMode.toggle': 'Switch colour mode: now {mode}',

  'error.heading': 'something went wrong',
  'error.backPrevious': 'back to previous page',
  'error.backHome': 'back to home',
  'error.backReading': 'back to reading page',
  'error.pageNotFound': 'Page not found: {path}',
  'error.internal': 'Something broke on our side, please try again later',

  'dialog.title': 'Notice',
  'dialog.confirm': 'OK',
  'dialog.cancel': 'Cancel',
  'dialog.close': 'Close',

  'toast.close': 'Dismiss notification',
  'toast.region': 'Notifications',

  'link.leaveTitle': 'Leaving Hikari',
  'link.leaveMessage': 'You are about to open an external site:\n{url}\nKeep your account and privacy safe. Continue?',
  'link.copied': 'Copied: {text}',
  'link.copyFailed': 'Copy failed: {error}',
  'link.copyPage': 'Copy link',

  'imagePreview.dialogTitle': 'Image preview',
  'imagePreview.loading': 'Loading...',
  'imagePreview.failed': 'Failed to load image',
  'imagePreview.close': 'Close',
  'imagePreview.previous': 'Previous',
  'imagePreview.next': 'Next',
  'imagePreview.zoomIn': 'Zoom in',
  'imagePreview.zoomOut': 'Zoom out',
  'imagePreview.rotate': 'Rotate',
  'imagePreview.reset': 'Reset',
  'imagePreview.download': 'Download',

  // The API client's own messages (any page with a login may show them).
  'auth.sessionExpired': 'Your login has expired, please log in again',
  'auth.error.network': 'Network error, please check your connection and try again',
  'auth.error.timeout': 'The request timed out, please try again later',

  'build.updated': 'A new version is available and loads on your next navigation',
};
