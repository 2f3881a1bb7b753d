import type { AfterPackContext } from 'electron-builder';
/** electron-builder's afterPack hook: node-pty's macOS spawn-helper and the launcher made executable. */
export default function afterPack(context: AfterPackContext): Promise<void>;
