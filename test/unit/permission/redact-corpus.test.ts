import { describe, expect, it } from 'vitest';
import { redactText, summarizeInput } from '../../../src/main/core/permission/redact';
import { loadedRuleIds } from '../../../src/main/core/permission/secrets/secret-rules';

// A corpus of secret forms a coding agent's calls carry (issue 12 names several), and texts that must stay readable.
// Each case: the text, and the secret in it that must not survive redaction. The values are made up.

const FINE_GRAINED_PAT = `github_pat_11ABCDEFG0${'aB3dE5gH7j'.repeat(7)}Kq2Lm9Np4Rt7`;

const SECRETS: Array<[string, string]> = [
  ['mysql -uroot -pS3cr3tPassw0rd mydb', 'S3cr3tPassw0rd'],
  ['mysqldump -h db.internal -u admin -p"quoted pass 9!" shop > dump.sql', 'quoted pass 9!'],
  ["mariadb --user=app --password='Tr0ub4dor&3x' app", 'Tr0ub4dor&3x'],
  ['curl -u alice:hunter2xyz https://api.example.com/v1/items', 'hunter2xyz'],
  ['curl --user bob:Zq8!pLm2 -X POST https://example.com', 'Zq8!pLm2'],
  [
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sflKxwRJSMeKKF2QT4fwpM" https://x.io',
    'sflKxwRJSMeKKF2QT4fwpM',
  ],
  [
    'curl -H "Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a" https://api.github.com',
    'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  ],
  ['curl -H "X-Api-Key: 5f4dcc3b5aa765d61d8327deb882cf99" https://svc', '5f4dcc3b5aa765d61d8327deb882cf99'],
  ['export AWS_ACCESS_KEY_ID=AKIAQYLPMN5HHHFPZAM2', 'AKIAQYLPMN5HHHFPZAM2'],
  ['export AWS_SECRET_ACCESS_KEY=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', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9q2Lx7Rt'],
  ['aws_secret_access_key = 8fK2lqP0vXyZ3mN7bC4dE6gH1jS5tU9wRa0Qe3Lp', '8fK2lqP0vXyZ3mN7bC4dE6gH1jS5tU9wRa0Qe3Lp'],
  [
    'stripe charges create --api-key sk_live_51H8xKzL2eZvKYlo2C8x9QwErTyUiOpAs',
    'sk_live_51H8xKzL2eZvKYlo2C8x9QwErTyUiOpAs',
  ],
  ['STRIPE_SECRET=rk_live_4eC39HqLyjWDarjtT1zdp7dc', 'rk_live_4eC39HqLyjWDarjtT1zdp7dc'],
  [
    'curl -X POST -d "{}" https://hooks.slack.com/services/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',
    'T024BE7LD/B01AB2CD3EF/vQ8rLm2NzX5pKqW7yT3sB9dF',
  ],
  [
    'SLACK_BOT_TOKEN=xoxb-2930472918-3829103847561-AbCdEfGhIjKlMnOpQrStUvWx',
    'xoxb-2930472918-3829103847561-AbCdEfGhIjKlMnOpQrStUvWx',
  ],
  ['{"user":"admin","password":"correct-horse-battery-staple"}', 'correct-horse-battery-staple'],
  ['{"apiKey": "AIzaSyD8e7Kx0n2kL9mPq4RsT6uVw1yZ3aB5cDe"}', 'AIzaSyD8e7Kx0n2kL9mPq4RsT6uVw1yZ3aB5cDe'],
  ['{"client_secret":"d8f7a6b5c4e3d2f1a0b9c8d7e6f5a4b3"}', 'd8f7a6b5c4e3d2f1a0b9c8d7e6f5a4b3'],
  ['config = { "accessToken": "at-9f8e7d6c5b4a39281706f5e4d3c2b1a0" }', 'at-9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
  ['DB_PASSWORD=pr0d-db-pa55 npm run migrate', 'pr0d-db-pa55'],
  ['PGPASSWORD=Xk3n9Lq2 psql -h db -U app', 'Xk3n9Lq2'],
  ['psql postgresql://app:VeryS3cret!@db.internal:5432/app', 'VeryS3cret!'],
  ['git clone https://oauth2:glpat-xK9mN3pQ7rT2vW5yZ8aB@gitlab.com/team/repo.git', 'glpat-xK9mN3pQ7rT2vW5yZ8aB'],
  ['redis-cli -h cache -a R3disP@ss ping', 'R3disP@ss'],
  ['sshpass -p "ssh-pa55word" ssh deploy@host', 'ssh-pa55word'],
  ['docker login -u ci -p dckr_pat_Zx8Kq2Lm9Np4Rt7Vw1Ys3Bd6 registry.example.com', 'dckr_pat_Zx8Kq2Lm9Np4Rt7Vw1Ys3Bd6'],
  ['smbclient //srv/share -U carol%Sh4reP4ss', 'Sh4reP4ss'],
  ['wget --user=dave --password=w9etPa55 https://files.example.com/a.zip', 'w9etPa55'],
  [
    'npm config set //registry.npmjs.org/:_authToken=npm_Ab3De5Gh7Jk9Mn2Pq4St6Vw8Yz0Bc2De4Fg6',
    'npm_Ab3De5Gh7Jk9Mn2Pq4St6Vw8Yz0Bc2De4Fg6',
  ],
  [
    'ANTHROPIC_API_KEY=sk-ant-api03-Zx9Kq2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2St-AbCdEfAA',
    'sk-ant-api03-Zx9Kq2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2St-AbCdEfAA',
  ],
  [
    'OPENAI_API_KEY=sk-proj-Zx9Kq2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9T3BlbkFJPq2St4Vw6Yz8Bc1De3Fg5',
    'sk-proj-Zx9Kq2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9T3BlbkFJPq2St4Vw6Yz8Bc1De3Fg5',
  ],
  [`gh auth login --with-token <<< ${FINE_GRAINED_PAT}`, FINE_GRAINED_PAT],
  [
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9k2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2\n-----END RSA PRIVATE KEY-----',
    'MIIEowIBAAKCAQEA7bq9k2Lm8Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw6Yz8Bc1De3Fg5Hj7Kl9Mn0Pq2',
  ],
  [
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB (cut here',
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB',
  ],
  ['password: hunter2-but-longer', 'hunter2-but-longer'],
  ['db:\n  password: "yaml-secret-value"\n', 'yaml-secret-value'],
  ["$password = 'php-secret-77';", 'php-secret-77'],
  ['app.secret_key = "flask-s3cr3t-k3y-value"', 'flask-s3cr3t-k3y-value'],
  [
    'SECRET_KEY_BASE=2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e',
    '2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e',
  ],
  ['heroku config:set API_TOKEN=hk-0a1b2c3d4e5f6a7b8c9d', 'hk-0a1b2c3d4e5f6a7b8c9d'],
  ['twilio --auth-token 8c2e5f9a1b3d7e0f4a6c8e2b5d9f1a3c', '8c2e5f9a1b3d7e0f4a6c8e2b5d9f1a3c'],
  ['vault login -method=userpass username=ed password=V4ultPa55', 'V4ultPa55'],
  [
    'SENDGRID_API_KEY=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',
    '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',
  ],
  ['Proxy-Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'YWxhZGRpbjpvcGVuc2VzYW1l'],
  ['amqp://guest:rabbitPa55@mq.internal:5672/', 'rabbitPa55'],
  ['mongodb+srv://root:M0ng0Pa55w0rd@cluster0.abcde.mongodb.net/db', 'M0ng0Pa55w0rd'],
  [
    '{"refresh_token": "1//0gZx8Kq2Lm9Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw"}',
    '1//0gZx8Kq2Lm9Np4Rt7Vw1Ys3Bd6Fh0Jk5Mn9Pq2St4Vw',
  ],
  ['DATADOG_API_KEY="4f8a2c6e9b1d3f5a7c9e2b4d6f8a1c3e"', '4f8a2c6e9b1d3f5a7c9e2b4d6f8a1c3e'],
];

// Texts a person needs to read in the audit log: nothing in them is a secret.
const NEGATIVES = [
  'npm run test -- --watch',
  'git log --oneline -n 20',
  'ls -la src/components',
  'grep -rn "password" src/auth/',
  'cat README.md | head -50',
  'git show 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a',
  'node scripts/build.mjs --mode production',
  'export PATH=/usr/local/bin:$PATH',
  'password=$DB_PASSWORD ./migrate.sh',
  'TOKEN_URL=https://auth.example.com/token npm start',
  'max_tokens: 1024',
  'const password = process.env.DB_PASSWORD;',
  'curl https://api.example.com/v1/health',
  'docker run --rm -p 8080:80 nginx',
  'mysql -u root -p mydb',
  'rg --files-with-matches TODO',
  'sed -n 1,40p src/main/index.ts',
  'python -m pytest tests/ -k "not slow"',
  'kubectl get pods -n default',
  'echo "hello world"',
];

describe('redaction corpus', () => {
  it('loads the vendored gitleaks rule set (no rule silently dropped)', () => {
    const ids = loadedRuleIds();
    expect(ids.length).toBeGreaterThanOrEqual(200);
    for (const id of [
      'aws-access-token',
      'stripe-access-token',
      'slack-webhook-url',
      'generic-api-key',
      'private-key',
      'github-pat',
    ])
      expect(ids).toContain(id);
  });

  it(`removes every one of ${SECRETS.length} secret forms`, () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
    const leaked = SECRETS.filter(([text, secret]) => redactText(text).includes(secret)).map(([text]) => text);
    expect(leaked).toEqual([]);
    // And no secret survives in part: no 8-character piece of it is left.
    for (const [text, secret] of SECRETS) {
      const out = redactText(text);
      for (let i = 0; i + 8 <= secret.length; i += 4) expect(out, text).not.toContain(secret.slice(i, i + 8));
    }
  });

  it('keeps ordinary commands and text exactly as they are', () => {
    const changed = NEGATIVES.filter((t) => redactText(t) !== t);
    expect(changed).toEqual([]);
  });

  it('drops the content of secret-holding files whole (config/prod.env, .npmrc, id_rsa) and redacts other content', () => {
    for (const p of [
      'config/prod.env',
      '.env.production',
      'deploy/.npmrc',
      '/home/u/.ssh/id_rsa',
      'certs/server.key',
    ]) {
      const s = summarizeInput('write_file', {
        path: p,
        content: 'DB_HOST=localhost\nSTRIPE_KEY=sk_live_51H8xKzL2eZvKYlo2C8x9QwEr\n',
      });
      expect(JSON.stringify(s), p).not.toMatch(/localhost|sk_live/);
      expect(s.path).toBe(p);
    }
    const code = summarizeInput('edit_file', {
      path: 'src/db.ts',
      old_string: 'const pw = "";',
      new_string: 'const password = "inline-s3cret-99";',
    });
    expect(JSON.stringify(code)).not.toContain('inline-s3cret-99');
    expect(String(code.new_string)).toContain('const password = ');
  });

  it('never throws on input nested absurdly deep', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(summarizeInput('read_file', { path: deep })).toEqual({ path: '[not serialisable: nested too deep]' });
  });
});
