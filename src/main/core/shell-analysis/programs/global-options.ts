import type { SimpleCommand } from '../types';

/**
 * Global options that come before a program's subcommand (contract "Assurance: Deny and ask rules see through
 * global options"): `git -C dir push` is `git push` to `Bash(git push:*)`, as are `git -c k=v push`,
 * `git --no-pager push`, `npm --prefix . publish`, `docker --context x run`. Only deny and ask rules use this view;
 * allow rules match the words as written.
 */
interface GlobalSpec {
  /** Options that take the next word as their value (unless given as `--opt=value` or attached `-Cdir`). */
  valued: Set<string>;
  /** A leading word of this shape is a global option too (`cargo +nightly build`). */
  prefix?: RegExp;
}

const spec = (valued: string, prefix?: RegExp): GlobalSpec => ({
  valued: new Set(valued.split(/\s+/).filter(Boolean)),
  ...(prefix ? { prefix } : {}),
});

const NODE_PM = spec(
  '--prefix -C --dir --cwd --workspace -w --userconfig --globalconfig --registry --cache --loglevel --filter -F --reporter',
);
const CONTAINER = spec(
  '--context -c -H --host --config -l --log-level --tlscacert --tlscert --tlskey --url --connection',
);
const KUBE = spec(
  '--context -n --namespace --kubeconfig --cluster --user -s --server --as --as-group --token --certificate-authority',
);

const GLOBALS = new Map<string, GlobalSpec>([
  ['git', spec('-C -c --git-dir --work-tree --namespace --config-env --super-prefix --exec-path --list-cmds')],
  ['npm', NODE_PM],
  ['npx', NODE_PM],
  ['pnpm', NODE_PM],
  ['yarn', NODE_PM],
  ['bun', NODE_PM],
  ['docker', CONTAINER],
  ['podman', CONTAINER],
  ['nerdctl', CONTAINER],
  ['kubectl', KUBE],
  ['oc', KUBE],
  ['helm', spec('--kube-context -n --namespace --kubeconfig --registry-config --repository-config')],
  ['cargo', spec('-C --config -Z --color', /^\+/)],
  ['rustup', spec('', /^\+/)],
  ['gh', spec('-R --repo --hostname')],
  ['go', spec('-C')],
  ['make', spec('-C --directory -f --file --makefile -I --include-dir -o --old-file -W --what-if --assume-new')],
  ['terraform', spec('')],
  ['tofu', spec('')],
  ['ninja', spec('-C -f -j -k -l -d -t -w')],
  ['uv', spec('--directory --project --cache-dir --config-file')],
  ['poetry', spec('-C --directory -P --project')],
  ['just', spec('-d --working-directory -f --justfile')],
  ['hg', spec('--cwd -R --repository --config')],
]);

/** The words with the leading global options removed, or null when there are none to remove. */
export function withoutGlobalOptions(cmd: SimpleCommand): string[] | null {
  const g = GLOBALS.get(cmd.name);
  if (g === undefined) return null;
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (g.prefix?.test(a) === true) {
      i++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') break;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    i += g.valued.has(name) && !a.includes('=') ? 2 : 1;
  }
  if (i === 1) return null;
  return [cmd.name, ...argv.slice(i)];
}
