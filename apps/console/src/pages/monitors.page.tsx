import { useState } from 'preact/hooks';

import type {
  MonitorCheckDetailView,
  MonitorCheckPageView,
  MonitorCheckView,
  MonitorView,
} from '@quarry/contracts';

import { Button, CodeBlock, ErrorMessage, Loading, PageTitle, StatusBadge, useLoad } from '../components/ui';
import { useTeamApi } from '../lib/console-context';
import { formatDuration, formatJson, formatNumber, formatTime } from '../lib/format';
import { href, navigate } from '../lib/router';
import { fieldChanges, sideBySide } from '../lib/side-by-side';

const summaryText = (summary: MonitorView['lastCheckSummary']) =>
  summary
    ? `${summary.totalPages} ${summary.totalPages === 1 ? 'page' : 'pages'}: ${summary.changed} changed, ${summary.new} new, ${summary.removed} removed, ${summary.error} ${summary.error === 1 ? 'error' : 'errors'}`
    : '–';

/** The team's monitors: schedule, status, next and last run, the last check's summary. */
export function MonitorsPage() {
  const api = useTeamApi();
  const { data, error, loading, reload } = useLoad(() => api.get<{ data: MonitorView[] }>('/v2/monitor'), []);
  return (
    <div>
      <PageTitle title="Monitors">Monitors</PageTitle>
      <Button onClick={reload}>Refresh</Button>
      <ErrorMessage error={error} />
      {loading && !data && <Loading />}
      {data && data.data.length === 0 && (
        <p>No monitors yet (create them with POST /v2/monitor or the SDK's createMonitor).</p>
      )}
      {data && data.data.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Monitors of the team</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Schedule</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">Last check</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((monitor) => (
                <tr key={monitor.id}>
                  <td>
                    <a href={href(`/monitors/${monitor.id}`)}>{monitor.name}</a>
                  </td>
                  <td>
                    <StatusBadge status={monitor.status} />
                  </td>
                  <td>
                    {monitor.schedule.text ?? <code>{monitor.schedule.cron}</code>} (
                    {monitor.schedule.timezone})
                  </td>
                  <td>{formatTime(monitor.nextRunAt)}</td>
                  <td>{formatTime(monitor.lastRunAt)}</td>
                  <td>{summaryText(monitor.lastCheckSummary)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One monitor: its targets and its checks, with a manual run. */
export function MonitorPage({ id }: { id: string }) {
  const api = useTeamApi();
  const monitor = useLoad(() => api.get<{ data: MonitorView }>(`/v2/monitor/${id}`), [id]);
  const checks = useLoad(
    () => api.get<{ data: MonitorCheckView[] }>(`/v2/monitor/${id}/checks?limit=50`),
    [id],
  );
  const [runError, setRunError] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    setRunError(undefined);
    try {
      const answer = await api.post<{ id: string }>(`/v2/monitor/${id}/run`, {});
      navigate(`/monitors/${id}/checks/${answer.id}`);
    } catch (error) {
      setRunError(error);
    } finally {
      setRunning(false);
    }
  };
  const view = monitor.data?.data;
  return (
    <div>
      <PageTitle title={view ? `Monitor ${view.name}` : 'Monitor'}>
        {view ? `Monitor: ${view.name}` : 'Monitor'}
      </PageTitle>
      <p>
        <a href={href('/monitors')}>Back to monitors</a>
      </p>
      <ErrorMessage error={monitor.error} />
      {view && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={view.status} />
            </dd>
            <dt>Schedule</dt>
            <dd>
              {view.schedule.text ?? <code>{view.schedule.cron}</code>} ({view.schedule.timezone})
            </dd>
            <dt>Next run</dt>
            <dd>{formatTime(view.nextRunAt)}</dd>
            <dt>Estimated credits per month</dt>
            <dd>{formatNumber(view.estimatedCreditsPerMonth)}</dd>
            {view.goal && (
              <>
                <dt>Goal</dt>
                <dd>{view.goal}</dd>
              </>
            )}
          </dl>
          <details>
            <summary>Targets ({view.targets.length})</summary>
            <CodeBlock code={formatJson(view.targets)} label="targets JSON" />
          </details>
          <Button variant="primary" busy={running} onClick={run}>
            Run a check now
          </Button>
          <ErrorMessage error={runError} />
        </>
      )}
      <section aria-labelledby="checks-title">
        <h2 id="checks-title">Checks</h2>
        <ErrorMessage error={checks.error} />
        {checks.loading && !checks.data && <Loading />}
        {checks.data && checks.data.data.length === 0 && <p>No checks yet.</p>}
        {checks.data && checks.data.data.length > 0 && (
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Status</th>
                  <th scope="col">Pages</th>
                  <th scope="col" class="number">
                    Credits
                  </th>
                  <th scope="col" class="number">
                    Duration
                  </th>
                </tr>
              </thead>
              <tbody>
                {checks.data.data.map((check) => (
                  <tr key={check.id}>
                    <td>
                      <a href={href(`/monitors/${id}/checks/${check.id}`)}>{formatTime(check.createdAt)}</a>
                    </td>
                    <td>{check.trigger}</td>
                    <td>
                      <StatusBadge status={check.status} />
                    </td>
                    <td>{summaryText(check.summary)}</td>
                    <td class="number">{formatNumber(check.actualCredits)}</td>
                    <td class="number">
                      {check.finishedAt && check.startedAt
                        ? formatDuration(Date.parse(check.finishedAt) - Date.parse(check.startedAt))
                        : '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

/** The change of one page: the markdown diff side by side, or the extracted fields before and after. */
function PageDiff({ page }: { page: MonitorCheckPageView }) {
  const rows = page.diff?.text ? sideBySide(page.diff.text) : [];
  const fields = fieldChanges(page.diff?.json);
  if (!rows.length && !fields.length) return <p class="muted">No diff recorded.</p>;
  return (
    <div class="diff">
      {rows.length > 0 && (
        <div class="table-scroll">
          <table class="side-by-side">
            <caption>Changes of {page.url}: previous check on the left, this check on the right</caption>
            <thead>
              <tr>
                <th scope="col" class="line-number">
                  Line
                </th>
                <th scope="col">Before</th>
                <th scope="col" class="line-number">
                  Line
                </th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) =>
                'hunk' in row ? (
                  <tr key={index} class="hunk">
                    <td colSpan={4}>{row.hunk}</td>
                  </tr>
                ) : (
                  <tr key={index}>
                    <td class="line-number">{row.left?.line ?? ''}</td>
                    <td class={row.left?.changed ? 'removed' : row.left ? '' : 'empty'}>
                      {row.left?.changed ? <span class="sr-only">removed: </span> : null}
                      {row.left?.text ?? ''}
                    </td>
                    <td class="line-number">{row.right?.line ?? ''}</td>
                    <td class={row.right?.changed ? 'added' : row.right ? '' : 'empty'}>
                      {row.right?.changed ? <span class="sr-only">added: </span> : null}
                      {row.right?.text ?? ''}
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      {fields.length > 0 && (
        <table>
          <caption>Extracted fields</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((change) => (
              <tr key={change.field}>
                <th scope="row">{change.field}</th>
                <td class="removed">{JSON.stringify(change.previous)}</td>
                <td class="added">{JSON.stringify(change.current)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A check's change report: every page with its status, judgment and diff. */
export function MonitorCheckPage({ monitorId, checkId }: { monitorId: string; checkId: string }) {
  const api = useTeamApi();
  const { data, error, loading, reload } = useLoad(
    () => api.get<{ data: MonitorCheckDetailView }>(`/v2/monitor/${monitorId}/checks/${checkId}?limit=100`),
    [monitorId, checkId],
  );
  const check = data?.data;
  const busy = check && (check.status === 'queued' || check.status === 'running');
  return (
    <div>
      <PageTitle title="Monitor check">Monitor check</PageTitle>
      <p>
        <a href={href(`/monitors/${monitorId}`)}>Back to the monitor</a>
      </p>
      <ErrorMessage error={error} />
      {loading && !check && <Loading />}
      {check && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={check.status} />
            </dd>
            <dt>Trigger</dt>
            <dd>{check.trigger}</dd>
            <dt>Pages</dt>
            <dd>{summaryText(check.summary)}</dd>
            <dt>Credits</dt>
            <dd>{formatNumber(check.actualCredits)}</dd>
            {check.error && (
              <>
                <dt>Error</dt>
                <dd class="error-cell">{check.error}</dd>
              </>
            )}
          </dl>
          {busy && (
            <p role="status">
              The check is still {check.status}. <Button onClick={reload}>Refresh</Button>
            </p>
          )}
          <section aria-labelledby="pages-title">
            <h2 id="pages-title">Pages ({check.pages.length})</h2>
            {check.pages.map((page) => (
              <article
                key={page.id}
                class={`monitor-page ${page.status}`}
                aria-label={`${page.status}: ${page.url}`}
              >
                <h3>
                  <StatusBadge status={page.status} /> <span class="target">{page.url}</span>
                </h3>
                {page.error && <p class="error-cell">{page.error}</p>}
                {page.judgment && (
                  <p>
                    Judgment: {page.judgment.meaningful ? 'meaningful' : 'not meaningful'} (
                    {page.judgment.confidence}) — {page.judgment.reason}
                  </p>
                )}
                {page.status === 'changed' && <PageDiff page={page} />}
              </article>
            ))}
          </section>
        </>
      )}
    </div>
  );
}
