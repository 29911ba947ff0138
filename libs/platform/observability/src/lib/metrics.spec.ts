import { PlatformMetrics } from './metrics';

const value = async (metrics: PlatformMetrics, name: string, labels: Record<string, string>) => {
  // Histogram samples carry their own names (`…_count`, `…_bucket`).
  const samples = (await metrics.registry.getMetricsAsJSON()).flatMap((metric) =>
    metric.values.map((entry) => ({
      ...entry,
      name: (entry as { metricName?: string }).metricName ?? metric.name,
    })),
  );
  const sample = samples.find(
    (entry) =>
      entry.name === name &&
      Object.entries(labels).every(([key, wanted]) => String(entry.labels[key]) === wanted),
  );
  return sample?.value;
};

describe('PlatformMetrics.trackJob', () => {
  it('counts a synchronous job: running while it runs, then completed with its duration', async () => {
    const metrics = new PlatformMetrics({ service: 'test', defaultMetrics: false });
    let release: () => void = () => undefined;
    const job = metrics.trackJob(
      'map',
      'none',
      () => new Promise<string>((resolve) => (release = () => resolve('links'))),
    );
    expect(await value(metrics, 'quarry_jobs_running', { kind: 'map' })).toBe(1);
    release();
    await expect(job).resolves.toBe('links');
    expect(await value(metrics, 'quarry_jobs_running', { kind: 'map' })).toBe(0);
    expect(await value(metrics, 'quarry_jobs_finished_total', { kind: 'map', outcome: 'completed' })).toBe(1);
    expect(await value(metrics, 'quarry_job_duration_seconds_count', { kind: 'map', engine: 'none' })).toBe(
      1,
    );
  });

  it('counts a job that throws as failed and rethrows', async () => {
    const metrics = new PlatformMetrics({ service: 'test', defaultMetrics: false });
    await expect(
      metrics.trackJob('search', 'none', () => Promise.reject(new Error('provider down'))),
    ).rejects.toThrow('provider down');
    expect(await value(metrics, 'quarry_jobs_finished_total', { kind: 'search', outcome: 'failed' })).toBe(1);
    expect(
      await value(metrics, 'quarry_jobs_finished_total', { kind: 'search', outcome: 'completed' }),
    ).toBeUndefined();
    expect(await value(metrics, 'quarry_jobs_running', { kind: 'search' })).toBe(0);
  });
});
