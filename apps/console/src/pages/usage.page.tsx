import { useState } from 'preact/hooks';

import type {
  ConcurrencyCheckResponse,
  CreditUsageHistoricalResponse,
  DailyUsageResponse,
  QueueStatusResponse,
  TeamInfoResponse,
} from '@quarry/contracts';

import { StackedBarChart } from '../components/chart';
import { ErrorMessage, Loading, PageTitle, Select, useLoad } from '../components/ui';
import { useTeamApi } from '../lib/console-context';
import { formatNumber, formatTime, KIND_LABELS } from '../lib/format';

/** Credits and tokens per day and endpoint, the balance, limits, concurrency and queue of the team. */
export function UsagePage() {
  const api = useTeamApi();
  const [days, setDays] = useState('30');
  const usage = useLoad(() => api.get<DailyUsageResponse>(`/v2/team/usage/daily?days=${days}`), [days]);
  const team = useLoad(() => api.get<TeamInfoResponse>('/v2/team'), []);
  const concurrency = useLoad(() => api.get<ConcurrencyCheckResponse>('/v2/concurrency-check'), []);
  const queue = useLoad(() => api.get<QueueStatusResponse>('/v2/team/queue-status'), []);
  const byKey = useLoad(
    () => api.get<CreditUsageHistoricalResponse>('/v2/team/credit-usage/historical?byApiKey=true'),
    [],
  );
  const thisMonth =
    byKey.data?.periods.filter(
      (period) => period.startDate === byKey.data?.periods[byKey.data.periods.length - 1]?.startDate,
    ) ?? [];
  return (
    <div>
      <PageTitle title="Usage">Usage</PageTitle>
      <section aria-labelledby="account-title" class="cards">
        <h2 id="account-title" class="sr-only">
          Account
        </h2>
        <div class="card stat">
          <h3>Credit balance</h3>
          <p class="big">{team.data ? formatNumber(team.data.data.credits) : '…'}</p>
          <p class="muted">team {team.data?.data.name}</p>
        </div>
        <div class="card stat">
          <h3>Rate limit</h3>
          <p class="big">
            {team.data
              ? team.data.data.rateLimitPerMinute === 0
                ? 'unlimited'
                : formatNumber(team.data.data.rateLimitPerMinute)
              : '…'}
          </p>
          <p class="muted">requests per minute per endpoint class</p>
        </div>
        <div class="card stat">
          <h3>Concurrency</h3>
          <p class="big">
            {concurrency.data ? `${concurrency.data.concurrency} / ${concurrency.data.maxConcurrency}` : '…'}
          </p>
          <p class="muted">browser scrapes running / allowed</p>
        </div>
        <div class="card stat">
          <h3>Queue</h3>
          <p class="big">
            {queue.data
              ? `${queue.data.activeJobsInQueue} active, ${queue.data.waitingJobsInQueue} waiting`
              : '…'}
          </p>
          <p class="muted">last success {formatTime(queue.data?.mostRecentSuccess)}</p>
        </div>
      </section>
      <ErrorMessage error={team.error ?? concurrency.error ?? queue.error} />
      <form class="filters" aria-label="Usage period" onSubmit={(event) => event.preventDefault()}>
        <Select
          label="Period"
          value={days}
          onChange={setDays}
          options={[
            { value: '7', label: 'Last 7 days' },
            { value: '30', label: 'Last 30 days' },
            { value: '90', label: 'Last 90 days' },
          ]}
        />
      </form>
      <ErrorMessage error={usage.error} />
      {usage.loading && !usage.data && <Loading />}
      {usage.data && (
        <>
          <StackedBarChart
            title="Credits per day"
            unit="credits"
            series={usage.data.days.map((day) => ({ label: day.date, values: day.creditsByEndpoint }))}
          />
          <StackedBarChart
            title="Language-model tokens per day"
            unit="tokens"
            series={usage.data.days.map((day) => ({ label: day.date, values: day.tokensByEndpoint }))}
          />
          <section aria-labelledby="endpoints-title">
            <h2 id="endpoints-title">Per endpoint</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col" class="number">
                    Credits
                  </th>
                  <th scope="col" class="number">
                    Tokens
                  </th>
                </tr>
              </thead>
              <tbody>
                {[
                  ...new Set([
                    ...Object.keys(usage.data.totals.creditsByEndpoint),
                    ...Object.keys(usage.data.totals.tokensByEndpoint),
                  ]),
                ]
                  .sort()
                  .map((endpoint) => (
                    <tr key={endpoint}>
                      <th scope="row">{KIND_LABELS[endpoint] ?? endpoint}</th>
                      <td class="number">
                        {formatNumber(usage.data?.totals.creditsByEndpoint[endpoint] ?? 0)}
                      </td>
                      <td class="number">
                        {formatNumber(usage.data?.totals.tokensByEndpoint[endpoint] ?? 0)}
                      </td>
                    </tr>
                  ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td class="number">{formatNumber(usage.data.totals.credits)}</td>
                  <td class="number">{formatNumber(usage.data.totals.tokens)}</td>
                </tr>
              </tfoot>
            </table>
          </section>
        </>
      )}
      {thisMonth.length > 0 && (
        <section aria-labelledby="keys-title">
          <h2 id="keys-title">Credits per API key this month</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">API key</th>
                <th scope="col" class="number">
                  Credits
                </th>
              </tr>
            </thead>
            <tbody>
              {thisMonth.map((period) => (
                <tr key={period.apiKey}>
                  <th scope="row">{period.apiKey}</th>
                  <td class="number">{formatNumber(period.creditsUsed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
