import { useEffect, useState } from 'preact/hooks';

import type { TeamJob, TeamJobsResponse } from '@quarry/contracts';

import { Button, ErrorMessage, Loading, PageTitle, Select, StatusBadge } from '../components/ui';
import { localPath } from '../lib/api.client';
import { useTeamApi } from '../lib/console-context';
import { formatDuration, formatNumber, formatTime, KIND_LABELS } from '../lib/format';
import { href, navigate } from '../lib/router';

const KINDS = [
  '',
  'scrape',
  'crawl',
  'batch_scrape',
  'map',
  'search',
  'parse',
  'extract',
  'agent',
  'interact',
  'monitor_check',
] as const;
const STATUSES = ['', 'queued', 'active', 'completed', 'failed', 'cancelled'] as const;

/** Where a job of the list opens: its own page, an agent run's trace, a monitor check's report. */
export function jobLink(job: Pick<TeamJob, 'id' | 'kind' | 'monitorId'>): string {
  if (job.kind === 'monitor_check' && job.monitorId)
    return href(`/monitors/${job.monitorId}/checks/${job.id}`);
  if (job.kind === 'agent') return href(`/agents/${job.id}`);
  return href(`/jobs/${job.id}`, { kind: job.kind });
}

/** Every job of the team, newest first: kind, status, credits, duration and error, filtered and paged. */
export function ActivityPage({ query }: { query: URLSearchParams }) {
  const api = useTeamApi();
  const kind = query.get('kind') ?? '';
  const status = query.get('status') ?? '';
  const [items, setItems] = useState<TeamJob[]>([]);
  const [next, setNext] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);

  const load = async (path: string, append: boolean) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await api.get<TeamJobsResponse>(path);
      setItems((previous) => (append ? [...previous, ...page.data] : page.data));
      setNext(page.next ? localPath(page.next) : undefined);
    } catch (problem) {
      setError(problem);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    const params = new URLSearchParams({ limit: '25' });
    if (kind) params.set('kind', kind);
    if (status) params.set('status', status);
    void load(`/v2/team/jobs?${params}`, false);
  }, [kind, status, tick]);

  return (
    <div>
      <PageTitle title="Activity">Activity</PageTitle>
      <form class="filters" aria-label="Filter jobs" onSubmit={(event) => event.preventDefault()}>
        <Select
          label="Kind"
          value={kind}
          onChange={(value) => navigate('/activity', { kind: value, status })}
          options={KINDS.map((value) => ({
            value,
            label: value ? (KIND_LABELS[value] ?? value) : 'All kinds',
          }))}
        />
        <Select
          label="Status"
          value={status}
          onChange={(value) => navigate('/activity', { kind, status: value })}
          options={STATUSES.map((value) => ({ value, label: value || 'All statuses' }))}
        />
        <Button onClick={() => setTick((value) => value + 1)}>Refresh</Button>
      </form>
      <ErrorMessage error={error} />
      {items.length > 0 && (
        <div class="table-scroll">
          <table class="jobs">
            <caption>Jobs of the team, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Kind</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Credits
                </th>
                <th scope="col" class="number">
                  Duration
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {items.map((job) => (
                <tr key={job.id}>
                  <td>
                    <a
                      href={jobLink(job)}
                      aria-label={`${KIND_LABELS[job.kind] ?? job.kind} ${job.target ?? job.id}, ${formatTime(job.createdAt)}`}
                    >
                      {formatTime(job.createdAt)}
                    </a>
                  </td>
                  <td>{KIND_LABELS[job.kind] ?? job.kind}</td>
                  <td class="target">{job.target ?? <span class="muted">(not kept)</span>}</td>
                  <td>
                    <StatusBadge status={job.status} />
                    {job.detail && job.detail !== job.status ? (
                      <span class="muted"> {job.detail}</span>
                    ) : null}
                  </td>
                  <td class="number">{formatNumber(job.creditsUsed)}</td>
                  <td class="number">{formatDuration(job.durationMs)}</td>
                  <td class="error-cell">{job.error ? `${job.error.code}: ${job.error.message}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!loading && items.length === 0 && !error && <p>No jobs yet. Try the playground.</p>}
      {loading ? <Loading /> : next && <Button onClick={() => void load(next, true)}>Load older jobs</Button>}
    </div>
  );
}
