/**
 * Chromium's features Playwright switches off (its chromiumSwitches.ts: Chromium reads only the last
 * `--disable-features`, so ours repeats them), and the omnibox popup: Chromium 156 loads it as a page of its own
 * (chrome://omnibox-popup.top-chrome, a renderer process) for every browser context, though a headless browser never
 * shows it. Measured on this app: a context and page cost 5.4 s of Chromium's CPU with it, 2.6 s without.
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
  // one that its page's navigation did not use (measured over 20 fresh contexts: 1.72 s of Chromium CPU per context
  // and page loading the app with it, 1.53 s without; a kept page's reload the same either way).
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
