import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isInside,
  isInsideAny,
  isStrictlyInside,
  relativeEscapes,
  relativeInside,
} from '../../../src/shared/node/path-containment';

describe('path containment', () => {
  it('compares whole segments: a sibling that shares a prefix is outside', () => {
    expect(isInside('/proj-evil/a', '/proj')).toBe(false);
    expect(isInside('/projX', '/proj')).toBe(false);
    expect(isInside('/proj/a/b', '/proj')).toBe(true);
    expect(isInside('/', '/proj')).toBe(false);
  });

  it('sees through dot segments and trailing separators (lexically)', () => {
    expect(isInside('/proj/a/../../etc/passwd', '/proj')).toBe(false);
    expect(isInside('/proj/./a/../b', '/proj/')).toBe(true);
    expect(relativeInside('/proj/a/../b', '/proj')).toBe('b');
  });

  it('counts the root itself as inside, but not as strictly inside', () => {
    expect(isInside('/proj', '/proj')).toBe(true);
    expect(isStrictlyInside('/proj', '/proj')).toBe(false);
    expect(isStrictlyInside('/proj/index.html', '/proj')).toBe(true);
    expect(relativeInside('/proj', '/proj')).toBe('');
  });

  it('treats names that merely start with two dots as inside', () => {
    expect(isInside('/proj/..cache', '/proj')).toBe(true);
    expect(isInside('/proj/...', '/proj')).toBe(true);
    for (const rel of ['..', '../x', `..${path.sep}x`, '/abs']) expect(relativeEscapes(rel), rel).toBe(true);
    for (const rel of ['', 'a', '..a', '...', 'a/..b']) expect(relativeEscapes(rel), rel).toBe(false);
  });

  it('folds case only when asked', () => {
    expect(isInside('/Proj/A', '/proj')).toBe(false);
    expect(isInside('/Proj/A', '/proj', { foldCase: true })).toBe(true);
    expect(isInside('/Projx/A', '/proj', { foldCase: true })).toBe(false);
  });

  it('checks a list of roots', () => {
    expect(isInsideAny('/data/x', ['/proj', '/data'])).toBe(true);
    expect(isInsideAny('/etc/x', ['/proj', '/data'])).toBe(false);
    expect(isInsideAny('/etc/x', [])).toBe(false);
  });
});
