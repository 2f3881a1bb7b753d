import type { CliCommand } from './command';
import { permissionsCommand } from './permissions-command';
import { rpcCommand } from './rpc-command';
import { rulesCommand } from './rules-command';
import { runCommand } from './run-command';
import { sessionsCommand } from './sessions-command';
import { trustCommand } from './trust-command';
import { webCommand } from './web-command';

/** Every subcommand of `gatehouse`. Add new ones here. */
export const COMMANDS: CliCommand[] = [permissionsCommand, rulesCommand, runCommand, rpcCommand, sessionsCommand, trustCommand, webCommand];
