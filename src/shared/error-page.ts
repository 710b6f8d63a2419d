/** The error page of spec §2.9: which single button it shows and where that button leads. */
export const DEFAULT_ERROR_STATUS = 500;
export const READER_PATH = '/lightnovel/read';
/** Where the reader keeps the novel and volume being read (written by the reader). */
export const READER_NOVEL_KEY = 'hikari-reader-novel-id';
export const READER_VOLUME_KEY = 'hikari-reader-volume-id';

export type ErrorAction = { kind: 'reading'; href: string } | { kind: 'previous' } | { kind: 'home'; href: '/' };

export interface ErrorActionInput {
  pathname: string;
  historyLength: number;
  novelId: string | null;
  volumeId: string | null;
}

export function errorAction({ pathname, historyLength, novelId, volumeId }: ErrorActionInput): ErrorAction {
  if (pathname.startsWith(READER_PATH) && novelId && volumeId) {
    return { kind: 'reading', href: `/lightnovel/volumes/${encodeURIComponent(volumeId)}` };
  }
  if (historyLength > 2) return { kind: 'previous' };
  return { kind: 'home', href: '/' };
}

export function errorStatus(status: number | undefined): number {
  return status && status >= 400 && status <= 599 ? status : DEFAULT_ERROR_STATUS;
}
