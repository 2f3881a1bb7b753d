/**
 * Chromium's features Playwright switches off (its chromiumSwitches.ts: Chromium reads only the last
 * `--disable-features`, so ours repeats them), and the omnibox popup: Chromium 156 loads it as a page of its own
 * (chrome://omnibox-popup.top-chrome, a renderer process) for every browser context, though a headless browser never
 * shows it: with it, each context and its page cost Chromium much more CPU.
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  // The spare renderer: Chromium starts a renderer process ahead of the next navigation. Each new context started
  // one that its page's navigation did not use, CPU spent for nothing (a kept page's reload costs the same either
  // way).
  'SpareRendererForSitePerProcess',
  'SpareRendererForDefaultIfNoSite',
];

/** How the UI bench and the e2e tests start Debian's Chromium. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];
