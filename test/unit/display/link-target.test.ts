import { describe, expect, it } from 'vitest';
import { linkTextMisleads } from '../../../src/renderer/src/display/link-target';

describe('linkTextMisleads (a link whose text reads like another address)', () => {
  it.each([
    ['https://bank.example', 'https://evil.example/login'],
    ['bank.example', 'https://evil.example/'],
    ['www.bank.example', 'https://bank.example.evil.example/'],
    ['https://github.com/org/repo', 'https://github.com/evil/repo'],
    ['apple.com', 'https://xn--pple-43d.com/'],
    ['apple.com', 'https://аpple.com/'],
    ['http://docs.example', 'https://docs.example.evil/'],
    ['https://docs.example:8443/', 'https://docs.example/'],
  ])('%s -> %s misleads', (text, href) => expect(linkTextMisleads(text, href)).toBe(true));

  it.each([
    ['https://docs.example/guide', 'https://docs.example/guide'],
    ['docs.example', 'https://docs.example/guide/intro'],
    ['https://docs.example/', 'https://docs.example'],
    ['the guide', 'https://evil.example/'],
    ['click here', 'https://anything.example/'],
    ['README.md', 'https://github.com/org/repo/blob/main/README.md'],
    ['v1.2', 'https://example.com/releases'],
  ])('%s -> %s does not', (text, href) => expect(linkTextMisleads(text, href)).toBe(false));
});
