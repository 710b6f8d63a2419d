import { afterEach, describe, expect, it } from 'vitest';
import {
  cookieJar,
  createCookieJar,
  memoryCookieDocument,
  parseCookieHeader,
  serializeCookie,
  setCookieJar,
} from './cookies.ts';

describe('parseCookieHeader', () => {
  it('reads name=value pairs, trimming spaces and decoding values', () => {
    expect(parseCookieHeader('a=1; b=hello%20world;c=%E5%85%89')).toEqual({ a: '1', b: 'hello world', c: '光' });
  });

  it('keeps the first of two cookies with the same name', () => {
    expect(parseCookieHeader('t=new; t=old')).toEqual({ t: 'new' });
  });

  it('keeps "=" inside values, strips quotes and skips malformed parts', () => {
    expect(parseCookieHeader('jwt=a.b=c; "q"; q="quoted"; =x; ;')).toEqual({ jwt: 'a.b=c', q: 'quoted' });
  });

  it('returns a badly encoded value as it is instead of throwing', () => {
    expect(parseCookieHeader('bad=%E5%85')).toEqual({ bad: '%E5%85' });
  });

  it('reads an empty header as no cookies', () => {
    expect(parseCookieHeader('')).toEqual({});
  });

  it('does not let a cookie named like an Object property confuse it', () => {
    const parsed = parseCookieHeader('constructor=1; __proto__=2');
    expect(parsed.constructor).toBe('1');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});

describe('serializeCookie', () => {
  it('writes the spec §9 attributes with an encoded value', () => {
    expect(serializeCookie('u', '{"name":"光"}', 3600)).toBe(
      'u=%7B%22name%22%3A%22%E5%85%89%22%7D; path=/; max-age=3600; secure; samesite=none',
    );
  });

  it('falls back to samesite=lax without secure outside a secure context', () => {
    expect(serializeCookie('u', 'x', 10, false)).toBe('u=x; path=/; max-age=10; samesite=lax');
  });

  it('never writes a negative or fractional max-age', () => {
    expect(serializeCookie('u', 'x', -5)).toContain('max-age=0;');
    expect(serializeCookie('u', 'x', 9.9)).toContain('max-age=9;');
  });
});

describe('createCookieJar', () => {
  it('round-trips values through a browser-like document.cookie', () => {
    const doc = memoryCookieDocument();
    const jar = createCookieJar(doc);
    jar.set('user', '{"name":"光; =x"}', 60);
    expect(jar.get('user')).toBe('{"name":"光; =x"}');
    expect(doc.writes[0]).toMatch(/^user=[^;]+; path=\/; max-age=60; secure; samesite=none$/);
  });

  it('removes a cookie with max-age=0 and the same path', () => {
    const doc = memoryCookieDocument();
    const jar = createCookieJar(doc);
    jar.set('a', '1', 60);
    jar.remove('a');
    expect(jar.get('a')).toBeNull();
    expect(doc.writes.at(-1)).toBe('a=; path=/; max-age=0; secure; samesite=none');
  });

  it('treats a zero lifetime as removal', () => {
    const jar = createCookieJar(memoryCookieDocument());
    jar.set('a', '1', 60);
    jar.set('a', '2', 0);
    expect(jar.get('a')).toBeNull();
  });

  it('returns null for a cookie that is not there', () => {
    expect(createCookieJar({ cookie: 'x=1' }).get('y')).toBeNull();
  });
});

describe('memoryCookieDocument', () => {
  it('forgets cookies once their max-age has passed', () => {
    let now = 1_000;
    const doc = memoryCookieDocument(() => now);
    doc.cookie = 'a=1; path=/; max-age=10';
    doc.cookie = 'b=2; path=/';
    expect(doc.cookie).toBe('a=1; b=2');
    now += 10_000;
    expect(doc.cookie).toBe('b=2');
  });
});

describe('cookieJar', () => {
  afterEach(() => setCookieJar(null));

  it('holds nothing where there is no document (server rendering)', () => {
    const jar = cookieJar();
    jar.set('a', '1', 60);
    expect(jar.get('a')).toBeNull();
  });

  it('uses the jar a test puts in place', () => {
    const jar = createCookieJar(memoryCookieDocument());
    setCookieJar(jar);
    cookieJar().set('a', '1', 60);
    expect(jar.get('a')).toBe('1');
  });
});
