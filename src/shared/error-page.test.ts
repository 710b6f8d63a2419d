import { describe, expect, it } from 'vitest';
import { errorAction, errorStatus } from './error-page.ts';

describe('error page button', () => {
  const base = { pathname: '/galgame/1', historyLength: 1, novelId: null, volumeId: null };

  it('reads "back to home" with 2 or fewer history entries', () => {
    expect(errorAction({ ...base, historyLength: 1 })).toEqual({ kind: 'home', href: '/' });
    expect(errorAction({ ...base, historyLength: 2 })).toEqual({ kind: 'home', href: '/' });
  });

  it('reads "back to previous page" with more than 2 entries', () => {
    expect(errorAction({ ...base, historyLength: 3 })).toEqual({ kind: 'previous' });
  });

  it('on the reader path with a stored novel and volume, goes back to the volume', () => {
    expect(errorAction({ pathname: '/lightnovel/read', historyLength: 5, novelId: 'n1', volumeId: 'v 9' })).toEqual({
      kind: 'reading',
      href: '/lightnovel/volumes/v%209',
    });
  });

  it('ignores the reader rule when either id is missing or the path is not the reader', () => {
    expect(errorAction({ pathname: '/lightnovel/read', historyLength: 5, novelId: 'n1', volumeId: null }).kind).toBe(
      'previous',
    );
    expect(errorAction({ pathname: '/lightnovel/read', historyLength: 1, novelId: null, volumeId: 'v1' }).kind).toBe(
      'home',
    );
    expect(errorAction({ pathname: '/lightnovel/1', historyLength: 1, novelId: 'n1', volumeId: 'v1' }).kind).toBe(
      'home',
    );
  });

  it('defaults the status code to 500', () => {
    expect(errorStatus(undefined)).toBe(500);
    expect(errorStatus(200)).toBe(500);
    expect(errorStatus(404)).toBe(404);
  });
});
