import { createHash } from 'node:crypto';

const NAMESPACE = 'quarry.agent';

/**
 * A UUID (version 5 layout) derived from a key: the same step of the same run always gets the
 * same event, task, scrape job and snapshot ids, which is what makes re-executed steps idempotent.
 */
export function uuidFromKey(key: string): string {
  const hash = createHash('sha1').update(`${NAMESPACE}:${key}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const orchestratorAgentId = (runId: string) => uuidFromKey(`${runId}:agent:orchestrator`);
export const taskId = (runId: string, round: number, url: string) =>
  uuidFromKey(`${runId}:round:${round}:read:${url}`);
export const scrapeJobId = (taskIdValue: string) => uuidFromKey(`${taskIdValue}:scrape`);
export const snapshotId = (runId: string, key: string) => uuidFromKey(`${runId}:snapshot:${key}`);
