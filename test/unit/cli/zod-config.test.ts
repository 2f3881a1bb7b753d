import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// src/main/shells/cli/index.ts turns zod's JIT off for one-shot commands by presetting the global zod reads its config from
// (zod is not loaded yet at that point, so z.config() cannot be called). If an upgrade of zod stops reading it, this
// fails: the CLI would still work, only slower to start.
describe('the global config object zod reads', () => {
  it('is what z.config() returns and changes', () => {
    const global = (globalThis as { __zod_globalConfig?: object }).__zod_globalConfig;
    expect(global).toBeDefined();
    expect(z.config()).toBe(global);
    const before = z.config().jitless;
    try {
      z.config({ jitless: true });
      expect((global as { jitless?: boolean }).jitless).toBe(true);
      // A parse still works jitless.
      expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      z.config({ jitless: before });
    }
  });
});
