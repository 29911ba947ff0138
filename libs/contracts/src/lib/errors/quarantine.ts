/**
 * The recorded reason of poison work (a job, a crawl or batch page, an agent step, a monitor check)
 * whose every allowed attempt ended without an outcome because the process running it died or was
 * killed: it is quarantined — failed with this error, visible in its status and errors — and never
 * delivered again, while the rest of its crawl, batch or run goes on.
 */
export function quarantineError(attempts: number): { code: 'SCRAPE_RETRY_LIMIT'; message: string } {
  return {
    code: 'SCRAPE_RETRY_LIMIT',
    message: `Quarantined after ${attempts} attempt${attempts === 1 ? '' : 's'} that each ended without a result (the process working on it stopped: killed, crashed or out of memory); it will not be retried`,
  };
}
