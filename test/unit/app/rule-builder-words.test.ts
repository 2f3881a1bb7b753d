import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandWords } from '../../../src/main/services/app/rule-builder/command-words';
import { countRuleFiles } from '../../../src/main/services/app/rule-builder/file-count';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { type PermissionEngine } from '../../../src/main/core/permission/engine';
import { parseRule } from '../../../src/main/core/rule-syntax/parse-rule';
import {
  commandRule,
  pathPattern,
  pathRule,
  usableWords,
  type PathReach,
} from '../../../src/renderer/src/rules/builder/rule-text';
import { removeTempDirs, rulesDirs, tempDir, write } from '../rules-helpers';

// The chips and the tree only help if the rule they make matches what was pointed at: checked with the engine.

describe('rule builder: a command’s words as chips', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ home, project, env } = rulesDirs('rb-words')));
  afterEach(removeTempDirs);

  /** An engine with `rule` allowed as if written to the user's settings (trusted project). */
  async function engineWith(rule: string): Promise<PermissionEngine> {
    const parsed = parseRule(rule);
    if (!parsed.ok) throw new Error(`${rule}: ${parsed.reason}`);
    return createPermissionEngine({
      projectRoot: project,
      configDir: home,
      env,
      trust: { isTrusted: () => Promise.resolve(true) },
      audit: null,
      mode: 'strict',
      pendingRules: [{ ...parsed.rule, behavior: 'allow', source: 'user', file: null }],
    });
  }
  const ruleOf = async (rule: string, command: string): Promise<string | null> =>
    (await (await engineWith(rule)).evaluate({ tool: 'run_command', input: { command } })).decision.rule;

  it('cuts a command as the engine matches it: inert variables dropped, others kept, wrappers set aside', async () => {
    const words = async (c: string) => (await commandWords(c)).parts.map((p) => p.words.map((w) => w.text));
    expect(await words('npm run lint --fix')).toEqual([['npm', 'run', 'lint', '--fix']]);
    expect(await words('DEBUG=1 npm test')).toEqual([['DEBUG=1', 'npm', 'test']]);
    expect(await words('LANG=C ls -la')).toEqual([['ls', '-la']]);
    expect(await words('timeout 5 npm test')).toEqual([['npm', 'test']]);
    expect(await words('npm run build && git commit -m "fix it"')).toEqual([
      ['npm', 'run', 'build'],
      ['git', 'commit', '-m', 'fix it'],
    ]);
  });

  it('flags words a rule matches loosely or cannot spell, and parts no allow rule can match', async () => {
    const r = await commandWords(`find . -name '*.ts' && echo "a  b" $HOME`);
    const [find, echo] = r.parts;
    expect(find!.words[3]).toMatchObject({ text: '*.ts', glob: true, unusable: false });
    expect(echo!.words[1]).toMatchObject({ text: 'a  b', unusable: true });
    expect(echo!.words[2]).toMatchObject({ dynamic: true });
    expect(usableWords(echo!.words)).toBe(1);
    expect(commandRule(echo!.words, 2, 'exact')).toBeNull();
    const blocked = await commandWords('PATH=. ls; ls | xargs rm');
    expect(blocked.parts.map((p) => p.allowBlocked !== null)).toEqual([true, false, true]);
    const unreadable = await commandWords('$(cat cmd.txt) --now');
    expect(unreadable.readable).toBe(false);
    expect(unreadable.reasons.length).toBeGreaterThan(0);
  });

  it.each([
    'npm run lint --fix',
    'DEBUG=1 npm test -- --watch',
    'timeout 5 npm test',
    'git commit -m "fix it"',
    'node -e "console.log(1)"',
    'cargo build --release',
  ])('every prefix of "%s" makes a rule the engine matches it with; the exact rule only with all words', async (c) => {
    const part = (await commandWords(c)).parts[0]!;
    const n = usableWords(part.words);
    expect(n).toBe(part.words.length);
    for (let k = 1; k <= n; k++) {
      const prefix = commandRule(part.words, k, 'prefix')!;
      expect(await ruleOf(prefix, c), prefix).toBe(prefix);
      const exact = commandRule(part.words, k, 'exact')!;
      expect(await ruleOf(exact, c), exact).toBe(k === n ? exact : null);
    }
  });
});

describe('rule builder: a path pointed at in the tree', () => {
  let home: string;
  let project: string;
  let extra: string;
  beforeEach(() => {
    ({ home, project } = rulesDirs('rb-paths'));
    extra = tempDir('gh-rb-paths-extra-');
    for (const f of ['README.md', 'src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/d.js', 'src/weird[1].ts', 'x.ts'])
      write(path.join(project, f), '');
    write(path.join(extra, 'lib/e.ts'), '');
  });
  afterEach(removeTempDirs);

  const count = async (rule: string) =>
    (await countRuleFiles(rule, { projectRoot: project, roots: [project, extra], home })).count;
  const at = (rel: string, isDir = false) => ({ root: project, inProject: true, rel, isDir });

  it.each<[string, boolean, PathReach, string | null, number]>([
    ['README.md', false, 'file', './README.md', 1],
    ['src/a.ts', false, 'file', './src/a.ts', 1],
    ['src/a.ts', false, 'folder', 'src/**', 5],
    ['src/a.ts', false, 'extension', 'src/**/*.ts', 4],
    ['src/weird[1].ts', false, 'file', './src/weird\\[1\\].ts', 1],
    ['src/lib', true, 'folder', 'src/lib/**', 2],
    ['src/lib', true, 'file', null, 0],
    ['', true, 'folder', './**', 7],
    ['x.ts', false, 'extension', './**/*.ts', 5],
    ['README', false, 'extension', null, 0],
  ])('%s (%s, %s) -> %s, matching %i files', async (rel, isDir, reach, pattern, n) => {
    const p = pathPattern(at(rel, isDir), reach);
    expect(p).toBe(pattern);
    if (p !== null) expect(await count(pathRule('read', p))).toBe(n);
  });

  it('a file of an additional directory is written as an absolute pattern that matches it', async () => {
    const p = pathPattern({ root: extra, inProject: false, rel: 'lib/e.ts', isDir: false }, 'file')!;
    expect(p).toBe(`/${extra}/lib/e.ts`);
    expect(await count(pathRule('edit', p))).toBe(1);
    expect(
      await count(pathRule('read', pathPattern({ root: extra, inProject: false, rel: 'lib', isDir: true }, 'folder')!)),
    ).toBe(1);
  });
});
