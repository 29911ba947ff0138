import { createHash } from 'node:crypto';

import type { MonitorTargetResult } from '@quarry/contracts';

/** What a check records per target while it runs (`done`: nothing more to wait for). */
export type TargetState = MonitorTargetResult & { done?: boolean };
export type SearchState = Extract<MonitorTargetResult, { type: 'search' }> & { done?: boolean };

export function started(state: TargetState): boolean {
  if (state.type === 'scrape') return !!state.batchId;
  if (state.type === 'crawl') return !!state.crawlId;
  return (
    !!state.batchId ||
    state.done === true ||
    (state.searchCompleted === true && (state.resultUrls?.length ?? 0) === 0)
  );
}

export function collectionIds(state: TargetState): string[] {
  if (state.type === 'scrape') return state.batchId ? [state.batchId] : [];
  if (state.type === 'crawl') return state.crawlId ? [state.crawlId] : [];
  return state.batchId ? [state.batchId] : [];
}

/** A UUID derived from the check and target: the same attempt always asks for the same collection. */
export function idempotencyKey(checkId: string, targetId: string, purpose: string): string {
  const hex = createHash('sha256').update(`monitor:${checkId}:${targetId}:${purpose}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
