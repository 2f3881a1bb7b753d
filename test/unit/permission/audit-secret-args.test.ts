import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/main/core/permission/audit-log';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../../src/main/core/permission/trust-oracle';
import { initShellParser } from '../../../src/main/core/shell-analysis/parse/parser';
import { exportTranscriptLines } from '../../../src/main/core/session/transcript-export';

// Issue 44 item 6: the audit log redacts secrets passed as arguments (or on the input) of the tools that take them,
// whatever the secret looks like: a closed table over the parsed command, not a pattern of the value. The values
// below are made up and shaped like nothing a pattern knows (no prefix, no keyword next to them).

let dir: string;
beforeAll(async () => {
  await initShellParser();
});
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-audit-args-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const S = 'Qm7vL2xW9pRt4Kz';
const CASES: string[] = [
  `aws configure set aws_secret_access_key ${S}`,
  `aws configure set default.aws_session_token '${S}'`,
  `aws --profile dev configure set aws_access_key_id ${S}`,
  `gh auth login --with-token <<< ${S}`,
  `echo ${S} | gh auth login -h github.example --with-token`,
  `gh secret set DEPLOY_KEY -b ${S}`,
  `gh secret set DEPLOY_KEY --body="${S}"`,
  `gh secret set DEPLOY_KEY <<'EOF'\n${S}\nEOF`,
  `npm config set //registry.npmjs.org/:_authToken ${S}`,
  `npm config set '//npm.example/:_authToken=${S}'`,
  `yarn config set npmAuthToken ${S}`,
  `docker login -u me -p ${S} registry.example`,
  `docker login --password=${S} registry.example`,
  `printf '%s' ${S} | docker login -u me --password-stdin`,
  `podman login -u me -p "${S}" quay.io`,
  `git credential approve <<EOF\nprotocol=https\nhost=github.com\nusername=me\npassword=${S}\nEOF`,
  `printf 'protocol=https\\nhost=h\\nusername=u\\npassword=${S}\\n' | git credential-store store`,
  `vault login ${S}`,
  `vault login -method=userpass username=me password=${S}`,
  `heroku config:set DATABASE=${S} -a app`,
  `fly secrets set API=${S}`,
  `kubectl create secret generic x --from-literal=api=${S}`,
  `cargo login ${S}`,
  `ngrok config add-authtoken ${S}`,
  `snyk auth ${S}`,
  `curl -u me:${S} https://api.example/v1`,
  `curl --oauth2-bearer ${S} https://api.example/v1`,
  `mysql -uroot -p${S} shop`,
  `sshpass -p ${S} ssh host`,
  `zip -P ${S} out.zip a`,
  `7z a -p${S} out.7z a`,
  `openssl enc -aes-256-cbc -pass pass:${S} -in a -out b`,
  `htpasswd -b .htpasswd me ${S}`,
  `tailscale up --authkey=${S}`,
  `env FOO=1 vault login ${S}`,
  `cd app && docker login -p ${S} r.example && docker push r.example/x`,
];

describe('the audit log never holds a secret given to a tool that takes one', () => {
  it('in the input, the reason and the rule', async () => {
    const log = new AuditLog({ configDir: dir });
    for (const command of CASES) {
      log.record(
        's1',
        { tool: 'run_command', input: { command } },
        {
          decision: 'ask',
          source: 'mode',
          rule: `Bash(${command})`,
          reason: `default mode: a command asks (in \`${command}\`)`,
        },
      );
    }
    await log.flush();
    const text = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(CASES.length);
    lines.forEach((line, i) => {
      expect(line, CASES[i]).not.toContain(S);
      expect(line, CASES[i]).toContain('[REDACTED]');
    });
    expect(text).not.toContain(S);
  });

  it("through the engine's own decisions (bypass mode, an allow rule quoting the command)", async () => {
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    const engine = await createPermissionEngine({
      projectRoot: project,
      configDir: dir,
      env: { HOME: dir },
      trust: fixedTrust(true),
      mode: 'bypassPermissions',
      sessionId: 's1',
      cliRules: [{ behavior: 'allow', rule: `Bash(vault login ${S})` }],
    });
    for (const command of CASES) await engine.decide({ tool: 'run_command', input: { command } });
    await engine.flushAudit();
    const text = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(CASES.length);
    expect(text).not.toContain(S);
  });

  it('keeps what is not a secret readable', async () => {
    const log = new AuditLog({ configDir: dir });
    const plain = [
      'aws configure set region eu-west-1',
      'npm config set registry https://registry.npmjs.org/',
      'git credential-cache exit',
      'docker login registry.example',
      'gh secret list',
      'echo hello world',
    ];
    for (const command of plain)
      log.record(
        's1',
        { tool: 'run_command', input: { command } },
        { decision: 'allow', source: 'mode', rule: null, reason: 'ok' },
      );
    await log.flush();
    const entries = fs
      .readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { input: { command: string } });
    expect(entries.map((e) => e.input.command)).toEqual(plain);
  });

  it('`gatehouse sessions export` redacts them the same way', async () => {
    const file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(
      file,
      CASES.map((command, i) =>
        JSON.stringify({
          type: 'event',
          event: { type: 'tool_call', id: `t${i}`, name: 'run_command', input: { command } },
        }),
      ).join('\n'),
    );
    const out = (await exportTranscriptLines(file)).join('\n');
    expect(out).not.toContain(S);
  });
});
