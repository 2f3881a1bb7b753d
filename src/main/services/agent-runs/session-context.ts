import type { ActiveMcpServer } from '../../../shared/mcp-contract';
import type { SandboxRunConfig, SandboxStatus } from '../../../shared/worker-protocol';
import { runMcpServers } from '../../core/mcp/mcp-run';
import type { PermissionEngine } from '../../core/permission/engine';
import { trustAnswer, type TrustAnswer, type TrustOracle } from '../../core/permission/trust-oracle';
import { checkProjectSandbox } from '../../core/sandbox/check-sandbox';
import { writableDirectories } from '../../core/sandbox/writable-directories';
import { loadInstructionFiles } from '../../core/trust/trust-preview';
import type { SkillWire, SubagentWire } from '../../../shared/skills-contract';
import { discoverAgents } from '../../core/agents/agents';
import { discoverSkills } from '../../core/skills/skills';
import type { WorkerHost } from '../../core/worker-host-types';
import { realDir } from './session-engine';

export interface SessionContextOptions {
  configDir: string;
  env: NodeJS.ProcessEnv;
  projectRoot: string;
  /** The shell's directories (before the settings' own). */
  additionalDirectories: readonly string[];
  engine: PermissionEngine;
  trust: TrustOracle;
  host: WorkerHost;
}

/**
 * What a session's runs get from the project as it is now: the writable directories, the sandbox the worker confines
 * commands with (and whether it works), and the instruction files. Trust is asked each time: a revoke is immediate.
 */
export class SessionContext {
  private sandbox: { status: SandboxStatus; problems: string[] } | null = null;

  constructor(private readonly options: SessionContextOptions) {}

  /** The last sandbox check: `enabled && !available` is a persistent warning, and every command asks. */
  get sandboxStatus(): { status: SandboxStatus; problems: string[] } | null {
    return this.sandbox;
  }

  /** Reads the sandbox settings and asks the worker whether its sandbox works for this project (fail safe). */
  async checkSandbox(): Promise<{ config: SandboxRunConfig; status: SandboxStatus }> {
    const { config, status, problems } = await checkProjectSandbox({
      configDir: this.options.configDir,
      env: this.options.env,
      projectRoot: this.options.projectRoot,
      projectTrusted: await this.projectTrusts('rules'),
      engine: this.options.engine,
      additionalDirectories: await this.additionalDirectories(),
      host: this.options.host,
    });
    this.sandbox = { status, problems };
    return { config, status };
  }

  /** The shell's directories and the settings' `permissions.additionalDirectories`: writable in the sandbox too. */
  async additionalDirectories(): Promise<string[]> {
    const extra = await Promise.all(this.options.additionalDirectories.map(realDir));
    return writableDirectories(this.options.engine, extra);
  }

  /** Instruction files join the prompt only when the project is trusted (checked on every prompt: revoke is immediate). */
  async instructions(): Promise<{ instructions?: string }> {
    const files = await loadInstructionFiles(this.options.projectRoot, await this.projectTrusts('instructions'));
    if (files.length === 0) return {};
    return {
      instructions: files
        .map((f) => `<project-instructions file="${f.path}">\n${f.content}\n</project-instructions>`)
        .join('\n\n'),
    };
  }

  /**
   * The MCP servers a run connects to: the person's own, and the project's only when it is trusted, its trust
   * enables MCP servers and the person approved that server as configured now (asked on every prompt).
   */
  async mcpServers(): Promise<ActiveMcpServer[]> {
    const untrusted = { trusted: false, extensions: { rules: false, hooks: false, instructions: false, mcp: false } };
    const trust = await trustAnswer(this.options.trust, this.options.projectRoot).catch(() => untrusted);
    return runMcpServers({
      configDir: this.options.configDir,
      projectRoot: this.options.projectRoot,
      snapshot: await this.options.engine.state.settings.snapshot(),
      trust,
    });
  }

  /**
   * The skills and sub-agents a run may use: the person's own, and the project's only while it is trusted with its
   * instructions enabled (they are prompt text and tool lists written by the project). Read on every prompt.
   */
  async definitions(): Promise<{ skills?: SkillWire[]; subagents?: SubagentWire[] }> {
    const where = {
      configDir: this.options.configDir,
      projectRoot: this.options.projectRoot,
      projectTrusted: await this.projectTrusts('instructions'),
    };
    const [skills, agents] = await Promise.all([discoverSkills(where), discoverAgents(where)]);
    return {
      ...(skills.items.length ? { skills: skills.items } : {}),
      ...(agents.items.length ? { subagents: agents.items } : {}),
    };
  }

  /** The project is trusted and its trust enables this extension (trust is specific); asked without blocking. */
  private async projectTrusts(extension: keyof TrustAnswer['extensions']): Promise<boolean> {
    try {
      const answer = await trustAnswer(this.options.trust, this.options.projectRoot);
      return answer.trusted && answer.extensions[extension];
    } catch {
      return false;
    }
  }
}
