/** Shared by the bubblewrap and Seatbelt set-ups: the `CommandSandbox` handed out once its probe passed. */
import type { SandboxCommand } from './bwrap-args';
import type { SandboxProfile } from './read-only-profile';
import type { CommandSandbox, WrappedCommand } from './types';
import { describeViolation, type ViolationContext } from './violation';

export interface SandboxParts {
  mechanism: CommandSandbox['mechanism'];
  wrap(command: SandboxCommand): Promise<WrappedCommand>;
  wrapReadOnly(command: string): Promise<WrappedCommand>;
  wrapUnsandboxed(command: string): WrappedCommand;
  /** What describeViolation needs, as of the call (the proxy's denials since the last wrap), for that profile. */
  violationContext(profile: SandboxProfile): ViolationContext;
  /** Stops the proxy and removes the sandbox's temp dirs. */
  teardown(): Promise<void>;
}

/** The sandbox: `wrap` refuses once disposed, and `dispose` tears down only once. */
export function sandboxHandle(parts: SandboxParts): CommandSandbox {
  let disposed = false;
  return {
    kind: 'sandbox',
    mechanism: parts.mechanism,
    wrap: async (command) => {
      if (disposed) throw new Error('the command sandbox was disposed');
      return parts.wrap(command);
    },
    wrapArgv: async (argv) => {
      if (disposed) throw new Error('the command sandbox was disposed');
      if (argv.length === 0) throw new Error('no program to run');
      return parts.wrap({ argv });
    },
    wrapReadOnly: async (command) => {
      if (disposed) throw new Error('the command sandbox was disposed');
      return parts.wrapReadOnly(command);
    },
    wrapUnsandboxed: (command) => parts.wrapUnsandboxed(command),
    describeViolation: (output, exitCode, profile = 'workspace') =>
      describeViolation(output, exitCode, parts.violationContext(profile)),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await parts.teardown();
    },
  };
}
