import { type Platform, startCluster, startStandalone } from './platform';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted member by member */
export type Body = Record<string, any>;

/**
 * The scrape engine end to end, on real Chromium and fixture pages on 127.0.0.1, through Kafka
 * (gateway and two workers as separate processes) and in one-process mode. 127.0.0.1 is allowed as
 * if public (OUTBOUND_ALLOWLIST); 127.0.0.2, 10/8 and 169.254/16 stay private and must be refused.
 */
export const ENV = {
  ALLOW_PRIVATE_NETWORKS: 'false',
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  BROWSER_CONCURRENCY: '2',
  TEAM_CONCURRENCY_LIMIT: '4',
  BROWSER_SETTLE_MS: '1500',
};

export const MODES: [string, () => Promise<Platform>][] = [
  ['through Kafka (gateway + 2 workers)', () => startCluster({ gateways: 1, workers: 2, env: ENV })],
  ['in one process', () => startStandalone(ENV)],
];
