import { GatehouseError } from '../shared/errors';
import {
  applyNetworkTrust,
  NETWORK_TRUST_ENV,
  NetworkTrustSchema,
  type NetworkTrust,
  type TlsCaApi,
  type TrustState,
} from '../shared/node/trusted-cas';

/**
 * The worker's certificate authorities: the system store and the CA files main put in its environment
 * (`GATEHOUSE_NETWORK_TRUST`, main/network/worker-trust-env.ts), installed once before the worker's first TLS
 * connection (a run's model request or MCP server, an MCP test), not at its start: a worker that never connects pays
 * nothing for reading the stores.
 */
export class WorkerNetworkTrust {
  private state: Promise<TrustState> | null = null;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly api?: TlsCaApi,
  ) {}

  /** Installs the CAs (once) and tells how it went. */
  ready(): Promise<TrustState> {
    this.state ??= applyNetworkTrust(this.settings(), this.api);
    return this.state;
  }

  /** For a run: the model is not contacted while a CA file or the settings naming it are broken. */
  async required(): Promise<void> {
    const { error } = await this.ready();
    if (error) throw new GatehouseError('BAD_REQUEST', `${error}; the model is not contacted until this is fixed`);
  }

  private settings(): NetworkTrust {
    const raw = this.env[NETWORK_TRUST_ENV];
    if (raw === undefined || raw === '') return { caFiles: [], errors: [] };
    try {
      return NetworkTrustSchema.parse(JSON.parse(raw));
    } catch {
      return { caFiles: [], errors: [`${NETWORK_TRUST_ENV} is malformed (main sets it: report this as a bug)`] };
    }
  }
}
