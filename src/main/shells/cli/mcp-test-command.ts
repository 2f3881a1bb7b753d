/** `gatehouse mcp test NAME [--project DIR] [--json]`: see src/main/core/mcp/mcp-test.ts. */
import { toRpcError } from '../../../shared/errors';
import { testMcpServer, type McpTestResult } from '../../core/mcp/mcp-test';
import { homeDir, userConfigDir } from '../../core/fs/config-dir';
import { storeOracle } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';
import { createNodeWorkerHost } from '../../services/worker-host/node-worker-host';
import { parseCommandArgs, pick } from './args';
import { MCP_OPTIONS } from './mcp-options';
import type { CliIO } from './command';
import { UsageError } from './command';
import { projectDir } from './project';

function print(io: CliIO, r: McpTestResult): void {
  io.out(`${r.server.name}  ${r.server.transport}  ${r.server.source} ${r.server.file}`);
  io.out(`  ${r.server.shown}`);
  io.out(`  ${r.status.state === 'ready' ? 'connected' : r.status.state}`);
  for (const t of r.tools) io.out(`  ${t.category.padEnd(5)} ${t.name}`);
  for (const s of r.status.skipped) io.out(`  left out: ${s.reason}`);
  const errors = r.status.errors.filter((e) => !r.status.skipped.some((s) => s.reason === e));
  for (const e of errors) io.out(`  error: ${e}`);
}

export async function mcpTest(rest: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(rest, pick(MCP_OPTIONS, 'project', 'json'));
  // The project folder is checked first, before a worker starts.
  const projectRoot = projectDir(values.project, io.cwd);
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('expected exactly one server NAME');
  const configDir = userConfigDir(io.env);
  const host = createNodeWorkerHost({ configDir, env: io.env });
  try {
    await host.start();
    const result = await testMcpServer({
      name: positionals[0],
      projectRoot,
      configDir,
      home: homeDir(io.env),
      env: io.env,
      trust: storeOracle(new TrustStore({ configDir, env: io.env })),
      host,
    });
    const ok = result.status.state === 'ready';
    if (values.json) io.out(JSON.stringify({ ok, ...result }));
    else print(io, result);
    if (!ok)
      io.err(`gatehouse mcp: "${result.server.name}" did not start: ${result.status.errors.at(-1) ?? 'unknown'}`);
    return ok ? 0 : 1;
  } catch (err) {
    const message = toRpcError(err).message;
    if (values.json) io.out(JSON.stringify({ ok: false, error: message }));
    io.err(`gatehouse mcp: ${message}`);
    return 1;
  } finally {
    await host.request('sandbox.dispose', {}, { timeoutMs: 3_000 }).catch(() => undefined);
    await host.stop();
  }
}
