import type { BrowserPool } from './browser-pool';

/**
 * The worker's browser pool once BrowserEngineModule has launched it (undefined without Chromium):
 * other worker features (interact sessions) share the one Chromium process.
 */
export class BrowserPoolRef {
  pool?: BrowserPool;
}
