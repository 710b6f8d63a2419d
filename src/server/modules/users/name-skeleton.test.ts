import { describe, expect, it } from 'vitest';
import { nameSkeleton } from './name-skeleton.ts';

describe('name skeletons', () => {
  it.each([
    ['hik\u0430ri_admin', 'a Cyrillic а'],
    ['hikari_\u03B1dmin', 'a Greek α'],
    ['ｈｉｋａｒｉ＿ａｄｍｉｎ', 'full-width letters'],
    ['HIKARI_ADMIN', 'capitals'],
    ['hikari_adrnin', 'rn for m'],
    [' hikari_admin ', 'spaces around'],
    ['hikari_\u1D00dmin', 'a small capital A'],
    ['\u029C\u026A\u1D0B\u1D00\u0280\u026A_\u1D00\u1D05\u1D0D\u026A\u0274', 'small capitals only'],
    ['hikari_admin\u3164', 'a Hangul filler'],
    ['hikari_admin\uFFA0', 'a half-width Hangul filler'],
    ['\u115Fhikari\u1160_admin', 'choseong and jungseong fillers'],
    ['hikari\u200B_admin\u2800', 'a zero-width space and blank braille'],
    ['𝐡𝐢𝐤𝐚𝐫𝐢_𝐚𝐝𝐦𝐢𝐧', 'mathematical bold letters'],
    ['𝔥𝔦𝔨𝔞𝔯𝔦_𝔞𝔡𝔪𝔦𝔫', 'mathematical fraktur letters'],
    ['ʰⁱᵏᵃʳⁱ_ᵃᵈᵐⁱⁿ', 'modifier (superscript) letters'],
    ['ⓗⓘⓚⓐⓡⓘ_ⓐⓓⓜⓘⓝ', 'circled letters'],
    ['\u041D\u0406\u041A\u0410R\u0406_\u0410D\u041C\u0406N', 'Cyrillic capitals'],
    ['\u0397IKARI_ADMIN', 'a Greek capital Eta'],
    ['\u0397\u0399\u039A\u0391R\u0399_\u0391D\u039C\u0399\u039D', 'Greek capitals'],
    ['hi\u0138ari_admin', 'a kra for k'],
  ])('gives %s (%s) the skeleton of hikari_admin', (name) => {
    expect(nameSkeleton(name)).toBe(nameSkeleton('hikari_admin'));
  });

  it.each([...'abcdefghijklmnopqrstuvwxyz'])('folds the small capital and styled forms of %s', (letter) => {
    const index = letter.charCodeAt(0) - 97;
    const plain = nameSkeleton(`x${letter}y`);
    const forms = [
      String.fromCodePoint(0xff41 + index), // full-width
      String.fromCodePoint(0xff21 + index), // full-width capital
      String.fromCodePoint(0x1d41a + index), // mathematical bold
      String.fromCodePoint(0x1d5ba + index), // mathematical sans-serif
      String.fromCodePoint(0x1d68a + index), // mathematical monospace
      String.fromCodePoint(0x24d0 + index), // circled
    ];
    for (const form of forms) expect(nameSkeleton(`x${form}y`), form).toBe(plain);
  });

  it('folds every Latin small capital that stands for one letter', () => {
    const smallCapitals = 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ';
    const letters = 'abcdefghijklmnopqrstuvwyz';
    expect([...smallCapitals].map((c) => nameSkeleton(c))).toEqual([...letters].map((c) => nameSkeleton(c)));
  });

  it('settles: the skeleton of a skeleton is itself', () => {
    for (const name of ['hikari_ᴀdmin', 'НІКАRІ', 'ΗΙΚΑ', '光之', 'émile', 'Straße']) {
      expect(nameSkeleton(nameSkeleton(name))).toBe(nameSkeleton(name));
    }
  });

  it('keeps names that do not look alike apart', () => {
    expect(nameSkeleton('hikari_admin2')).not.toBe(nameSkeleton('hikari_admin'));
    expect(nameSkeleton('光之')).toBe('光之');
    expect(nameSkeleton('한글')).toBe('한글');
    expect(nameSkeleton('ひかり')).toBe('ひかり');
    expect(nameSkeleton('sakura')).not.toBe(nameSkeleton('sakuya'));
    expect(nameSkeleton('émile')).not.toBe(nameSkeleton('emile'));
    expect(nameSkeleton('한글')).not.toBe(nameSkeleton('한'));
  });
});
