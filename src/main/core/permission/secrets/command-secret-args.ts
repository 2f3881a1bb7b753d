import { analyzeCommand } from '../../shell-analysis/analyze';
import { shellParserReady } from '../../shell-analysis/parse/parser';
import type { SimpleCommand } from '../../shell-analysis/types';

/**
 * Secrets passed as arguments (or on the input) of the tools that take them (contract "Defaults"/audit log, issue 44
 * item 6): a closed table over the parsed command, so the value is found whatever it looks like (`aws configure set
 * aws_secret_access_key VALUE`, `vault login TOKEN`, `cargo login TOKEN`) and however it is quoted. A tool that
 * reads its secret from its input (`gh auth login --with-token`, `docker login --password-stdin`, `git credential
 * approve`) makes every literal the command feeds (here-documents, here-strings, `echo`/`printf` words) a secret.
 * The shape-based patterns (command-secrets.ts, gitleaks) still run after this.
 */

/** Keys whose value is a secret (`aws_secret_access_key`, `//registry/:_authToken`, `npmAuthToken`, `password`). */
const SECRET_KEY =
  /(secret|token|passw|_auth$|_auth\b|authkey|auth-key|api[-_]?key|access[-_]?key|private[-_]?key|credential)/i;

type Extract = (argv: readonly string[]) => { args: string[]; stdin: boolean };

const none = { args: [] as string[], stdin: false };

/** The word after any of `names` (`-p X`), the attached form (`--password=X`, `-pX` when `glued`). */
function optionValues(argv: readonly string[], names: readonly string[], glued: readonly string[] = []): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    for (const n of names) {
      if (a === n && argv[i + 1] !== undefined) out.push(argv[i + 1] as string);
      else if (n.startsWith('--') && a.startsWith(`${n}=`)) out.push(a.slice(n.length + 1));
    }
    for (const g of glued)
      if (a.startsWith(g) && a.length > g.length && !a.startsWith('--')) out.push(a.slice(g.length));
  });
  return out;
}

/** `KEY=VALUE` words: every value (env-style secret setters), or only those of secret-looking keys. */
function assignmentValues(words: readonly string[], onlySecretKeys: boolean): string[] {
  return words.flatMap((w) => {
    const m = /^([^=\s]+)=(.+)$/s.exec(w);
    if (m === null) return [];
    return !onlySecretKeys || SECRET_KEY.test(m[1] as string) ? [m[2] as string] : [];
  });
}

const operands = (argv: readonly string[]): string[] => argv.slice(1).filter((a) => !a.startsWith('-'));

/** The words appear one after the other (`secret set`), after any global options (`gh -R o/r secret set`). */
function has(argv: readonly string[], ...words: string[]): boolean {
  return argv.some((_, i) => i > 0 && words.every((w, k) => argv[i + k] === w));
}

/** `tool config set KEY VALUE` / `KEY=VALUE` with a secret-looking key. */
function configSet(argv: readonly string[]): string[] {
  const ops = operands(argv);
  const at = ops.findIndex((o, i) => o === 'set' && i <= 3);
  if (at < 0) return [];
  const [key, value] = ops.slice(at + 1);
  if (key === undefined) return [];
  if (value !== undefined) return SECRET_KEY.test(key) ? [value] : [];
  return assignmentValues([key], true);
}

const LOGIN_PASSWORD: Extract = (argv) => ({
  args: argv.includes('login') ? optionValues(argv, ['-p', '--password']) : [],
  stdin: argv.includes('--password-stdin'),
});

const TABLE = new Map<string, Extract>([
  ['aws', (argv) => ({ args: has(argv, 'configure') ? configSet(argv) : [], stdin: false })],
  ['npm', (argv) => ({ args: configSet(argv), stdin: false })],
  ['pnpm', (argv) => ({ args: configSet(argv), stdin: false })],
  ['yarn', (argv) => ({ args: configSet(argv), stdin: false })],
  ['pip', (argv) => ({ args: configSet(argv), stdin: false })],
  ['docker', LOGIN_PASSWORD],
  ['podman', LOGIN_PASSWORD],
  ['nerdctl', LOGIN_PASSWORD],
  ['buildah', LOGIN_PASSWORD],
  ['skopeo', LOGIN_PASSWORD],
  ['helm', LOGIN_PASSWORD],
  ['oras', LOGIN_PASSWORD],
  [
    'gh',
    (argv) => {
      const secret = has(argv, 'secret', 'set');
      const body = secret ? optionValues(argv, ['-b', '--body'], ['-b']) : [];
      const withToken = has(argv, 'auth', 'login') && argv.includes('--with-token');
      return { args: body, stdin: withToken || (secret && body.length === 0) };
    },
  ],
  [
    'glab',
    (argv) => ({
      args: has(argv, 'auth') ? optionValues(argv, ['-t', '--token']) : [],
      stdin: argv.includes('--stdin'),
    }),
  ],
  [
    'git',
    (argv) => {
      const sub = argv.find((a, i) => i > 0 && !a.startsWith('-'));
      const credential = sub !== undefined && /^credential(-store|-cache)?$/.test(sub);
      return { args: [], stdin: credential };
    },
  ],
  [
    'vault',
    (argv) => {
      if (!has(argv, 'login')) return none;
      const ops = operands(argv);
      const after = ops.slice(ops.indexOf('login') + 1);
      const token = after[0] !== undefined && !after[0].includes('=') ? [after[0]] : [];
      return { args: [...token, ...assignmentValues(after, true)], stdin: argv.includes('-') };
    },
  ],
  [
    'heroku',
    (argv) => ({ args: has(argv, 'config:set') ? assignmentValues(operands(argv), false) : [], stdin: false }),
  ],
  [
    'fly',
    (argv) => ({
      args: has(argv, 'secrets', 'set') ? assignmentValues(operands(argv), false) : [],
      stdin: has(argv, 'secrets', 'import'),
    }),
  ],
  [
    'flyctl',
    (argv) => ({
      args: has(argv, 'secrets', 'set') ? assignmentValues(operands(argv), false) : [],
      stdin: has(argv, 'secrets', 'import'),
    }),
  ],
  [
    'doppler',
    (argv) => ({ args: has(argv, 'secrets', 'set') ? assignmentValues(operands(argv), false) : [], stdin: false }),
  ],
  ['wrangler', (argv) => ({ args: [], stdin: has(argv, 'secret', 'put') })],
  ['vercel', (argv) => ({ args: optionValues(argv, ['-t', '--token']), stdin: has(argv, 'env', 'add') })],
  [
    'kubectl',
    (argv) => ({
      args: [
        ...optionValues(argv, ['--from-literal']).flatMap((v) => assignmentValues([v], false)),
        ...optionValues(argv, ['--token', '--password']),
      ],
      stdin: false,
    }),
  ],
  ['cargo', (argv) => ({ args: after(argv, 'login'), stdin: has(argv, 'login') })],
  ['snyk', (argv) => ({ args: after(argv, 'auth'), stdin: false })],
  ['ngrok', (argv) => ({ args: [...after(argv, 'authtoken'), ...after(argv, 'add-authtoken')], stdin: false })],
  ['tailscale', (argv) => ({ args: optionValues(argv, ['--authkey', '--auth-key']), stdin: false })],
  ['doctl', (argv) => ({ args: optionValues(argv, ['-t', '--access-token']), stdin: false })],
  ['az', (argv) => ({ args: has(argv, 'login') ? optionValues(argv, ['-p', '--password']) : [], stdin: false })],
  ['twine', (argv) => ({ args: optionValues(argv, ['-p', '--password']), stdin: false })],
  [
    'curl',
    (argv) => ({
      args: [
        ...optionValues(argv, ['--oauth2-bearer']),
        ...userPasswords(optionValues(argv, ['-u', '--user'], ['-u'])),
      ],
      stdin: false,
    }),
  ],
  [
    'wget',
    (argv) => ({
      args: optionValues(argv, ['--password', '--http-password', '--ftp-password', '--proxy-password']),
      stdin: false,
    }),
  ],
  ['http', (argv) => ({ args: userPasswords(optionValues(argv, ['-a', '--auth'])), stdin: false })],
  [
    'lftp',
    (argv) => ({
      args: optionValues(argv, ['-u'])
        .map((v) => v.split(',').slice(1).join(','))
        .filter(Boolean),
      stdin: false,
    }),
  ],
  ['sshpass', (argv) => ({ args: optionValues(argv, ['-p'], ['-p']), stdin: false })],
  ['redis-cli', (argv) => ({ args: optionValues(argv, ['-a', '--pass']), stdin: false })],
  ['sqlcmd', (argv) => ({ args: optionValues(argv, ['-P']), stdin: false })],
  ['ldapsearch', (argv) => ({ args: optionValues(argv, ['-w']), stdin: false })],
  ['ldapmodify', (argv) => ({ args: optionValues(argv, ['-w']), stdin: false })],
  ['mongosh', (argv) => ({ args: optionValues(argv, ['-p', '--password']), stdin: false })],
  ['mongo', (argv) => ({ args: optionValues(argv, ['-p', '--password']), stdin: false })],
  ['zip', (argv) => ({ args: optionValues(argv, ['-P', '--password']), stdin: false })],
  ['unzip', (argv) => ({ args: optionValues(argv, ['-P']), stdin: false })],
  ['7z', (argv) => ({ args: optionValues(argv, [], ['-p']), stdin: false })],
  ['7za', (argv) => ({ args: optionValues(argv, [], ['-p']), stdin: false })],
  ['rar', (argv) => ({ args: optionValues(argv, [], ['-p', '-hp']), stdin: false })],
  ['unrar', (argv) => ({ args: optionValues(argv, [], ['-p']), stdin: false })],
  [
    'openssl',
    (argv) => ({
      args: [
        ...optionValues(argv, ['-pass', '-passin', '-passout', '-password', '-k']).map((v) => v.replace(/^pass:/, '')),
      ],
      stdin: argv.some((a, i) => /^-pass(in|out)?$/.test(a) && argv[i + 1] === 'stdin'),
    }),
  ],
  ['gpg', (argv) => ({ args: optionValues(argv, ['--passphrase']), stdin: argv.includes('--passphrase-fd') })],
  [
    'htpasswd',
    (argv) => ({
      args: argv.some((a) => /^-[a-zA-Z]*b/.test(a)) ? operands(argv).slice(-1) : [],
      stdin: argv.some((a) => /^-[a-zA-Z]*i/.test(a)),
    }),
  ],
  ['chpasswd', () => ({ args: [], stdin: true })],
  ['passwd', (argv) => ({ args: [], stdin: argv.includes('--stdin') })],
]);

/** The operands after the subcommand `word` (`cargo login TOKEN`). */
function after(argv: readonly string[], word: string): string[] {
  const ops = operands(argv);
  const at = ops.indexOf(word);
  return at < 0 ? [] : ops.slice(at + 1);
}

/** `user:password` values: the password part. */
function userPasswords(values: readonly string[]): string[] {
  return values.flatMap((v) => (v.includes(':') ? [v.slice(v.indexOf(':') + 1)] : []));
}

/** Literal text a command feeds to an input: here-document bodies and here-strings. */
function fedText(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/<<-?\s*(['"]?)([A-Za-z_][\w.-]*)\1[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?:\n|$)/g))
    if (m[3]) out.push(...(m[3] as string).split('\n').map((l) => l.trim()));
  for (const m of command.matchAll(/<<<\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s;&|)]+))/g))
    out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** The secret values the command passes to the tools of the table (never empty strings). */
export function commandSecretValues(command: string): string[] {
  if (!shellParserReady() || !command) return [];
  let commands: SimpleCommand[];
  try {
    commands = analyzeCommand(command).commands;
  } catch {
    return [];
  }
  const secrets: string[] = [];
  let stdin = false;
  for (const cmd of commands) {
    const found = TABLE.get(cmd.name)?.(cmd.argv);
    if (found === undefined) continue;
    secrets.push(...found.args);
    stdin ||= found.stdin;
  }
  if (stdin) {
    secrets.push(...fedText(command));
    for (const cmd of commands)
      if (cmd.name === 'echo' || cmd.name === 'printf')
        secrets.push(...cmd.argv.slice(1).filter((a) => !/^-[neE]+$/.test(a)));
  }
  return [...new Set(secrets.map((s) => s.trim()).filter((s) => s.length >= 3))];
}
