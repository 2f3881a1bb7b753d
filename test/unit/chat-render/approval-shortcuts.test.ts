import { describe, expect, it } from 'vitest';
import { ariaShortcut, shortcutAction } from '../../../src/renderer/src/chat/approval-shortcuts';
import type { ApprovalChoice } from '../../../src/shared/approval-contract';

const ALL: ApprovalChoice[] = ['once', 'session', 'always', 'deny'];
const press = (
  key: string,
  mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {},
  code = `Key${key.toUpperCase()}`,
) => ({
  key,
  code,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('approval shortcuts', () => {
  it('Alt + the letter answers; plain letters (typing a note) never do', () => {
    expect(shortcutAction(press('o', { altKey: true }), ALL)).toBe('once');
    expect(shortcutAction(press('S', { altKey: true }), ALL)).toBe('session');
    expect(shortcutAction(press('a', { altKey: true }), ALL)).toBe('always');
    expect(shortcutAction(press('d', { altKey: true }), ALL)).toBe('deny');
    for (const key of ['o', 's', 'a', 'd']) expect(shortcutAction(press(key), ALL)).toBeNull();
  });

  it('Ctrl or Cmd with Alt is someone else’s shortcut; other letters do nothing', () => {
    expect(shortcutAction(press('o', { altKey: true, ctrlKey: true }), ALL)).toBeNull();
    expect(shortcutAction(press('o', { altKey: true, metaKey: true }), ALL)).toBeNull();
    expect(shortcutAction(press('x', { altKey: true }), ALL)).toBeNull();
  });

  it('macOS Alt characters are matched by the physical key', () => {
    expect(shortcutAction(press('ø', { altKey: true }, 'KeyO'), ALL)).toBe('once');
    expect(shortcutAction(press('∂', { altKey: true }, 'KeyD'), ALL)).toBe('deny');
  });

  it('a hidden button has no shortcut (the once-only dialog: Allow once and Deny)', () => {
    const onceOnly: ApprovalChoice[] = ['once', 'deny'];
    expect(shortcutAction(press('s', { altKey: true }), onceOnly)).toBeNull();
    expect(shortcutAction(press('a', { altKey: true }), onceOnly)).toBeNull();
    expect(shortcutAction(press('o', { altKey: true }), onceOnly)).toBe('once');
  });

  it('names the shortcuts for aria-keyshortcuts', () => {
    expect(ariaShortcut('once')).toBe('Alt+O');
    expect(ariaShortcut('deny')).toBe('Escape Alt+D');
  });
});
