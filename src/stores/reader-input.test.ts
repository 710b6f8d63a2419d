import { describe, expect, it } from 'vitest';
import { isTypingTarget, keyAction, tapAction } from './reader-input.ts';

describe('reader input', () => {
  it('turns pages from the outer thirds and toggles the bars in the middle', () => {
    expect(tapAction(10, 390, false)).toBe('backward');
    expect(tapAction(380, 390, false)).toBe('forward');
    expect(tapAction(195, 390, false)).toBe('toggle-chrome');
    expect(tapAction(10, 0, false)).toBe('toggle-chrome');
  });

  it('mirrors the zones and the arrows for right-to-left books', () => {
    expect(tapAction(10, 390, true)).toBe('forward');
    expect(tapAction(380, 390, true)).toBe('backward');
    expect(keyAction('ArrowLeft', false, true)).toBe('forward');
    expect(keyAction('ArrowRight', false, true)).toBe('backward');
  });

  it('maps arrows, page keys and space; other keys do nothing', () => {
    expect(keyAction('ArrowLeft', false, false)).toBe('backward');
    expect(keyAction('ArrowRight', false, false)).toBe('forward');
    expect(keyAction('PageDown', false, false)).toBe('forward');
    expect(keyAction('PageUp', false, false)).toBe('backward');
    expect(keyAction(' ', false, false)).toBe('forward');
    expect(keyAction(' ', true, false)).toBe('backward');
    expect(keyAction('a', false, false)).toBeNull();
  });

  it('leaves keys typed into fields alone', () => {
    expect(isTypingTarget({ tagName: 'textarea' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
