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
 * (`GATEHOUSE_NETWORK_TRUST`, src/main/core/network/worker-trust-env.ts), installed once before the worker's first TLS
 * connection (a run's model request or MCP server, an MCP test), not at its start: a worker that never connects pays
 * nothing for reading the stores.
 */
export class WorkerNetworkTrust {
  private state: Promise<TrustState> | null = null;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly api?: TlsCaApi,
    /** Electron's version when the worker is a utility process (which ignores NODE_EXTRA_CA_CERTS). */
    private readonly electron: string | undefined = process.versions.electron,
  ) {}

  /** Installs the CAs (once) and tells how it went. */
  ready(): Promise<TrustState> {
    this.state ??= applyNetworkTrust(this.settings(), this.api).then((state) => this.checked(state));
    return this.state;
  }

  /**
   * An Electron whose Node cannot replace its default CAs has no other way to take the files (its fuses make it ignore
   * NODE_EXTRA_CA_CERTS): said, rather than left to a certificate error that suggests setting what is set.
   */
  private checked(state: TrustState): TrustState {
    if (state.install.mode !== 'unsupported' || state.caFiles === 0 || this.electron === undefined) return state;
    const why = `Electron ${this.electron} (Node ${process.versions.node}) cannot add network.caFile to its trusted CAs (no tls.setDefaultCACertificates)`;
    return { ...state, error: state.error ? `${state.error}; ${why}` : why };
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
