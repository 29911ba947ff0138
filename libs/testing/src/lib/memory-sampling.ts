/**
 * Runs `work` while sampling this process's resident memory (worker threads included) every 10 ms:
 * its outcome, how far memory rose above where it started, and how long it took.
 */
export async function withRssSampling<T>(
  work: () => Promise<T>,
): Promise<{ outcome: PromiseSettledResult<T>; growth: number; ms: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = Date.now();
  const [outcome] = await Promise.allSettled([work()]);
  clearInterval(timer);
  return { outcome, growth: Math.max(peak, process.memoryUsage().rss) - baseline, ms: Date.now() - started };
}
