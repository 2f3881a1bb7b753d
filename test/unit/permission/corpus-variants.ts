import fs from 'node:fs';
import path from 'node:path';

/**
 * The public corpus (../shared/corpus, beside the repository; see ../shared/tools/permission-corpus.mjs for the case
 * format) and its path cases respelled the ways another platform writes the same paths: Windows drive letters,
 * backslashes, mixed separators, `\\?\` and UNC prefixes, and (on a volume that folds case) other cases of the same
 * names. A respelled case names the same files, so its decision must stay the same (or be stricter).
 */
export interface CorpusCase {
  id: string;
  call: { tool: string; input: Record<string, unknown> };
  settings?: Partial<
    Record<string, { allow?: string[]; ask?: string[]; deny?: string[]; additionalDirectories?: string[] }>
  >;
  mode?: string;
  agentMode?: string;
  trust?: string;
  expect: 'allow' | 'ask' | 'deny';
  expectSource?: string;
}

export const CORPUS_DIR = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'corpus');
const FILES = ['permission-cases.jsonl', 'assurance-cases.jsonl', 'assurance-cases-v3.jsonl'];

export function corpusAvailable(): boolean {
  return FILES.every((f) => fs.existsSync(path.join(CORPUS_DIR, f)));
}

export function loadCorpus(): CorpusCase[] {
  return FILES.flatMap((f) =>
    fs
      .readFileSync(path.join(CORPUS_DIR, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('//'))
      .map((l) => JSON.parse(l) as CorpusCase),
  );
}

const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'find_files', 'search_code']);
/** Names and spellings that make a command a case about where paths land. */
const PATH_MARKERS = ['.gatehouse', '.claude', '.git', '.husky', '.env', '.ssh', 'secrets', '../', '{', 'link-', '~'];

/** A self-protection, sensitive-file or confinement case: a file tool, a command naming such a place, a path rule. */
export function isPathCase(c: CorpusCase): boolean {
  if (FILE_TOOLS.has(c.call.tool)) return true;
  const command = typeof c.call.input.command === 'string' ? c.call.input.command : '';
  if (PATH_MARKERS.some((m) => command.includes(m))) return true;
  return /"(Read|Edit|Write)\(|additionalDirectories/.test(JSON.stringify(c.settings ?? {}));
}

/** How a variant spells the corpus's paths. */
export interface Spelling {
  name: string;
  /** `{project}` and friends in a file tool's input and in settings. */
  vars: (v: Record<string, string>) => Record<string, string>;
  /** The same in a command (the shell's spelling: Git Bash reads `/c/x`, `C:/x` and a quoted `'C:\x'`). */
  shellVars: (v: Record<string, string>) => Record<string, string>;
  /** A relative path of a file tool (`src/a.ts`). */
  relative: (p: string) => string;
  /** A relative path word in a command, unquoted (a backslash must be written `\\` for the shell). */
  shellWord: (p: string) => string;
  /** A path rule's pattern. */
  pattern: (p: string) => string;
}

/** The protected and sensitive names, and the folders of the fixture, in another case. */
const CASE_VARIANTS: [RegExp, string][] = [
  [/\.gatehouse/g, '.GateHouse'],
  [/\.claude/g, '.CLAUDE'],
  [/\.git(?=\/|\\|$|\s)/g, '.GIT'],
  [/\.husky/g, '.Husky'],
  [/\.env/g, '.ENV'],
  [/\.ssh/g, '.SSH'],
  [/secrets/g, 'Secrets'],
  [/settings\.(yaml|json)/g, 'Settings.$1'],
  [/hooks/g, 'HOOKS'],
  [/link-out/g, 'LINK-OUT'],
  [/outside/g, 'OUTSIDE'],
];

export function caseVariant(text: string): string {
  return CASE_VARIANTS.reduce((t, [re, to]) => t.replace(re, to), text);
}

const identity = (s: string): string => s;
const same = (v: Record<string, string>): Record<string, string> => v;
const backslashes = (s: string): string => s.replace(/\//g, '\\');
/** Separators alternating `\` and `/`. */
const mixed = (s: string): string => {
  let i = 0;
  return s.replace(/\//g, () => (i++ % 2 === 0 ? '\\' : '/'));
};
const mapValues = (v: Record<string, string>, f: (s: string) => string): Record<string, string> =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)]));
/** Git Bash's spelling of a drive path: `C:\project` is `/c/project`. */
const msys = (p: string): string =>
  p
    .replace(/^([A-Za-z]):[\\/]*/, (_m, d: string) => `/${d.toLowerCase()}/`)
    .replace(/\\/g, '/')
    .replace(/\/$/, '') || '/';

/** A relative path under the project written absolute (`src/a.ts` -> PREFIX + `src/a.ts`); others as they are. */
const under =
  (prefix: string, convert: (s: string) => string = identity) =>
  (p: string): string =>
    p.startsWith('/') || p.startsWith('~') || p.startsWith('{') ? p : prefix + convert(p.replace(/^\.\//, ''));
/** A project-relative path rule written absolute (`./secrets/**`); a name rule (`.env`, `*.lock`) stays a name. */
const absoluteRule =
  (prefix: string, convert: (s: string) => string = identity) =>
  (p: string): string =>
    p.includes('/') && !p.startsWith('//') && !p.startsWith('~') ? prefix + convert(p.replace(/^\.?\//, '')) : p;

/** The Windows spellings, for a tree at `C:\` (the project is `C:\project`). */
export function windowsSpellings(foldCase: boolean): Spelling[] {
  const out: Spelling[] = [
    {
      name: 'drive letters',
      vars: same,
      shellVars: (v) => mapValues(v, (p) => p.replace(/\\/g, '/')),
      relative: under('C:\\project\\', backslashes),
      shellWord: under('C:/project/'),
      pattern: absoluteRule('//C:/project/'),
    },
    {
      name: 'backslashes',
      vars: same,
      shellVars: (v) => mapValues(v, (p) => `'${p}'`),
      relative: backslashes,
      shellWord: (p) => p.replace(/\//g, '\\\\'),
      pattern: backslashes,
    },
    {
      name: 'mixed separators, lower-case drive',
      vars: (v) => mapValues(v, (p) => mixed(p.replace(/\\/g, '/')).replace(/^C:/, 'c:')),
      shellVars: (v) => mapValues(v, (p) => p.replace(/\\/g, '/').replace(/^C:/, 'c:')),
      relative: under('c:/project\\', mixed),
      shellWord: under("'c:\\project/", (p) => `${mixed(p)}'`),
      pattern: absoluteRule('C:\\project/', mixed),
    },
    {
      name: "Git Bash's /c/ and the rule form //c/",
      vars: same,
      shellVars: (v) => mapValues(v, msys),
      relative: identity,
      shellWord: under('/c/project/'),
      pattern: absoluteRule('//c/project/'),
    },
    {
      name: '\\\\?\\ prefix',
      vars: (v) => mapValues(v, (p) => `\\\\?\\${p}`),
      shellVars: (v) => mapValues(v, (p) => `'\\\\?\\${p}'`),
      relative: under('\\\\?\\C:\\project\\', backslashes),
      shellWord: under("'\\\\?\\C:\\project\\", (p) => `${backslashes(p)}'`),
      pattern: absoluteRule('\\\\?\\C:\\project\\', backslashes),
    },
    {
      name: 'the administrative share \\\\localhost\\c$',
      vars: (v) => mapValues(v, (p) => p.replace(/^C:/, '\\\\localhost\\c$')),
      shellVars: (v) => mapValues(v, (p) => `'${p.replace(/^C:/, '\\\\localhost\\c$')}'`),
      relative: under('\\\\localhost\\C$\\project\\'),
      shellWord: under("'\\\\localhost\\C$\\project\\", (p) => `${p}'`),
      pattern: identity,
    },
  ];
  if (!foldCase) return out;
  return [
    ...out,
    {
      name: 'names in other cases',
      vars: (v) => mapValues(v, (p) => caseVariant(p).replace(/project/g, 'PROJECT')),
      shellVars: (v) => mapValues(v, (p) => msys(p).replace(/project/g, 'Project')),
      relative: (p) => backslashes(caseVariant(p)),
      shellWord: caseVariant,
      pattern: caseVariant,
    },
  ];
}

/** The spellings of a POSIX volume that folds case (macOS's default). */
export function foldedSpellings(): Spelling[] {
  return [
    {
      name: 'names in other cases',
      vars: (v) => mapValues(v, (p) => caseVariant(p)),
      shellVars: (v) => mapValues(v, (p) => caseVariant(p)),
      relative: caseVariant,
      shellWord: caseVariant,
      pattern: caseVariant,
    },
  ];
}

/** Names of the fixture a relative path word of a command starts with (so `s/a/b/` stays a sed script). */
const WORD_STARTS = [
  '.gatehouse',
  '.claude',
  '.git',
  '.husky',
  '.env',
  'secrets',
  'private',
  'src',
  'docs',
  '..',
  'link-out',
  'link-file',
];

function respellCommand(command: string, s: Spelling, vars: Record<string, string>): string {
  const withVars = command.replace(/\{(project|outside|root|userhome)\}/g, (_m, k: string) => s.shellVars(vars)[k]!);
  return withVars.replace(/(?<=^|[\s=<>])[\w.+~-]+(\/[\w./-]*)?(?=$|[\s;&|)<>])/g, (word) =>
    (WORD_STARTS.some((w) => word === w || word.startsWith(`${w}/`)) || word.startsWith('./')) && !/[*?[]/.test(word)
      ? s.shellWord(word)
      : word,
  );
}

const PATH_RULE =
  /^(Read|Edit|Write|MultiEdit|Glob|Grep|read_file|write_file|edit_file|find_files|search_code)\((.*)\)$/;

/** The case with its paths spelled by `s`; the fixture's engine paths are `vars` (`project`: `C:\project`, ...). */
export function respell(c: CorpusCase, s: Spelling, vars: Record<string, string>): CorpusCase {
  const v = s.vars(vars);
  const sub = (text: string): string => text.replace(/\{(project|outside|root|userhome)\}/g, (_m, k: string) => v[k]!);
  const input: Record<string, unknown> = { ...c.call.input };
  if (typeof input.command === 'string') input.command = respellCommand(input.command, s, vars);
  if (typeof input.path === 'string') {
    const p = input.path;
    input.path = p.startsWith('{') ? sub(p) : s.relative(p);
  }
  const settings = Object.fromEntries(
    Object.entries(c.settings ?? {}).map(([file, perms]) => [
      file,
      {
        ...perms,
        ...Object.fromEntries(
          (['allow', 'ask', 'deny'] as const)
            .filter((b) => perms?.[b])
            .map((b) => [
              b,
              perms![b]!.map((rule) => {
                const m = PATH_RULE.exec(rule);
                return m ? `${m[1]}(${s.pattern(sub(m[2]!))})` : rule;
              }),
            ]),
        ),
        ...(perms?.additionalDirectories ? { additionalDirectories: perms.additionalDirectories.map(sub) } : {}),
      },
    ]),
  );
  return { ...c, call: { ...c.call, input }, settings };
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** At least as strict as expected: the same decision, or ask/deny where allow was expected, deny where ask was. */
export function atLeastAsStrict(got: string, expected: 'allow' | 'ask' | 'deny'): boolean {
  return got in RANK && RANK[got as keyof typeof RANK] >= RANK[expected];
}
