import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rolldown } from 'rolldown';

/**
 * The test MCP servers as single self-contained files in a folder the OS sandbox shows its processes. A stdio server
 * runs inside the sandbox, where /tmp is a private, empty folder: a checkout under /tmp (as a CI clone may be) would
 * hide the test server's file and its node_modules from it. Bundled (SDK, zod, express… inlined) into a fresh
 * folder under /var/tmp, the servers run wherever the repository is. Made once per run by global-setup.ts.
 */
export const MCP_BUNDLE_ENV = 'GATEHOUSE_TEST_MCP_DIR';

export async function bundleTestMcpServers(repoRoot: string): Promise<{ dir: string; remove(): void }> {
  const dir = fs.realpathSync(fs.mkdtempSync('/var/tmp/gh-test-mcp-'));
  const req = createRequire(path.join(repoRoot, 'package.json'));
  const everything = path.join(
    path.dirname(req.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
    'index.js',
  );
  const inputs: [string, string][] = [
    [path.join(repoRoot, 'test', 'support', 'mcp-test-server.mjs'), 'mcp-test-server.mjs'],
    [everything, 'server-everything.mjs'],
  ];
  for (const [input, file] of inputs) {
    const bundle = await rolldown({ input, platform: 'node', logLevel: 'silent' });
    await bundle.write({ file: path.join(dir, file), format: 'esm', codeSplitting: false });
    await bundle.close();
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
