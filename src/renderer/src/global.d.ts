import type { GatehouseApi } from '../../shared/api';

declare global {
  interface Window {
    /** The desktop shell's preload bridge (absent in the browser shell, which uses the socket). */
    readonly gatehouse?: GatehouseApi;
  }
}

export {};
