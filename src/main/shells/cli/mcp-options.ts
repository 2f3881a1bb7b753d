import { JSON_OUTPUT, PROJECT, SCOPE_HELP, SCOPES } from './cli-options';
import type { OptionSpecs } from './command';

/** Every option of `gatehouse mcp` (each form takes some of them), with its help. */
export const MCP_OPTIONS = {
  project: PROJECT,
  json: { ...JSON_OUTPUT, help: 'list, test: print JSON instead of text' },
  scope: {
    type: 'string',
    value: 'SCOPE',
    choices: SCOPES,
    help: `add, remove: the settings file (default user). ${SCOPE_HELP}`,
  },
  url: { type: 'string', value: 'URL', help: 'add: an HTTP server at URL (instead of -- COMMAND)' },
  env: { type: 'string', multiple: true, value: 'K=V', help: "add: set K=V in a stdio server's environment" },
  'env-allow': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: 'add: pass your NAME variable on to a stdio server (its environment is scrubbed otherwise)',
  },
  'allow-domain': {
    type: 'string',
    multiple: true,
    value: 'HOST',
    help: "add: let a stdio server reach HOST through the sandbox's proxy",
  },
  header: { type: 'string', multiple: true, value: 'K=V', help: 'add: send header K: V to an HTTP server' },
} as const satisfies OptionSpecs;
