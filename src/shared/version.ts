declare const __GATEHOUSE_VERSION__: string;

/** The product version, injected at build time from package.json (and by the test config). */
export const GATEHOUSE_VERSION: string =
  typeof __GATEHOUSE_VERSION__ === 'string' ? __GATEHOUSE_VERSION__ : '0.0.0-dev';
