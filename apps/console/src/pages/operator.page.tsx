import { useState } from 'preact/hooks';

import type { AdminKey, AdminSystemResponse, AdminTeam, AdminTeamsResponse } from '@quarry/contracts';

import {
  Button,
  Checkbox,
  CodeBlock,
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  StatusBadge,
  useLoad,
} from '../components/ui';
import { useAdminApi } from '../lib/console-context';
import { formatNumber, formatTime, KIND_LABELS } from '../lib/format';

/** Runs an admin call from a form, keeping its error and busy state. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function SystemHealth() {
  const api = useAdminApi();
  const { data, error, loading, reload } = useLoad(
    () => api.get<AdminSystemResponse>('/admin/v1/system'),
    [],
  );
  return (
    <section aria-labelledby="health-title" class="card">
      <h2 id="health-title">System health</h2>
      <Button onClick={reload}>Refresh</Button>
      <ErrorMessage error={error} />
      {loading && !data && <Loading />}
      {data && (
        <>
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col">Ready</th>
                  <th scope="col">Checks</th>
                </tr>
              </thead>
              <tbody>
                {data.services.map((service) => (
                  <tr key={service.name}>
                    <th scope="row">{service.name}</th>
                    <td>
                      <StatusBadge status={service.ready ? 'ready' : 'failed'} />
                    </td>
                    <td>
                      <ul class="checks">
                        {Object.entries(service.checks).map(([name, check]) => (
                          <li key={name}>
                            <StatusBadge status={check.ok ? 'ready' : 'failed'} /> {name} ({check.ms} ms)
                            {check.error ? `: ${check.error}` : ''}
                          </li>
                        ))}
                        {service.error && <li class="error-cell">{service.error}</li>}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Unfinished jobs</h3>
          {data.backlog.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul>
              {data.backlog.map((entry) => (
                <li key={`${entry.kind}/${entry.status}`}>
                  {KIND_LABELS[entry.kind] ?? entry.kind} {entry.status}: {formatNumber(entry.count)}
                </li>
              ))}
            </ul>
          )}
          <h3>Dashboards</h3>
          {data.dashboards.length === 0 ? (
            <p>
              Set <code>GRAFANA_URL</code> to link the Grafana dashboards here.
            </p>
          ) : (
            <ul class="inline-list">
              {data.dashboards.map((dashboard) => (
                <li key={dashboard.url}>
                  <a href={dashboard.url} rel="noopener noreferrer" target="_blank">
                    {dashboard.title}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Keys({ team, onChanged }: { team: AdminTeam; onChanged: () => void }) {
  const api = useAdminApi();
  const keys = useLoad(() => api.get<{ data: AdminKey[] }>(`/admin/v1/teams/${team.id}/keys`), [team.id]);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState('');
  const [created, setCreated] = useState<{ key: string; prefix: string }>();
  const [confirming, setConfirming] = useState<string>();
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await api.post<{ key: string; data: AdminKey }>(`/admin/v1/teams/${team.id}/keys`, {
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(scopes.trim()
          ? {
              scopes: scopes
                .split(',')
                .map((scope) => scope.trim())
                .filter(Boolean),
            }
          : {}),
      });
      setCreated({ key: answer.key, prefix: answer.data.prefix });
      setName('');
      setScopes('');
      keys.reload();
      onChanged();
    });
  };
  const revoke = (key: AdminKey) =>
    void action.run(async () => {
      await api.delete(`/admin/v1/keys/${key.id}`);
      setConfirming(undefined);
      keys.reload();
      onChanged();
    });
  return (
    <section aria-labelledby="keys-title">
      <h3 id="keys-title">API keys of {team.name}</h3>
      {created && (
        <div class="new-key" role="alert">
          <p>
            <strong>New key {created.prefix}…</strong> — copy it now: it is shown once and only its hash is
            stored.
          </p>
          <CodeBlock code={created.key} label="new API key" />
          <Button onClick={() => setCreated(undefined)}>I have copied it</Button>
        </div>
      )}
      <ErrorMessage error={keys.error ?? action.error} />
      {keys.data && (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((key) => (
                <tr key={key.id}>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{key.name ?? ''}</td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>{formatTime(key.createdAt)}</td>
                  <td>{formatTime(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span>revoked {formatTime(key.revokedAt)}</span>
                    ) : confirming === key.id ? (
                      <>
                        <Button
                          variant="danger"
                          busy={action.busy}
                          onClick={() => revoke(key)}
                          label={`Confirm revoking key ${key.prefix}`}
                        >
                          Confirm revoke
                        </Button>{' '}
                        <Button onClick={() => setConfirming(undefined)}>Keep</Button>
                      </>
                    ) : (
                      <Button onClick={() => setConfirming(key.id)} label={`Revoke key ${key.prefix}`}>
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={create} class="inline-form" aria-label={`Create a key for ${team.name}`}>
        <Field label="Key name (optional)" value={name} onInput={setName} />
        <Field
          label="Scopes (comma-separated, empty: all)"
          value={scopes}
          onInput={setScopes}
          placeholder="scrape, crawl, account"
        />
        <Button type="submit" variant="primary" busy={action.busy}>
          Create key
        </Button>
      </form>
    </section>
  );
}

function TeamSettings({ team, onChanged }: { team: AdminTeam; onChanged: () => void }) {
  const api = useAdminApi();
  const [amount, setAmount] = useState('');
  const [rate, setRate] = useState(team.rateLimitPerMinute?.toString() ?? '');
  const [concurrency, setConcurrency] = useState(team.concurrencyLimit?.toString() ?? '');
  const [zdr, setZdr] = useState(team.zeroDataRetention);
  const grant = useAction();
  const limits = useAction();
  return (
    <div class="split">
      <form
        class="card"
        aria-label={`Grant credits to ${team.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          void grant.run(async () => {
            await api.post(`/admin/v1/teams/${team.id}/credits`, { amount: Number(amount) });
            setAmount('');
            onChanged();
          });
        }}
      >
        <h3>Credits</h3>
        <p>Balance: {formatNumber(team.credits)}</p>
        <Field
          label="Credits to grant (negative removes)"
          type="number"
          value={amount}
          onInput={setAmount}
          required
        />
        <Button type="submit" variant="primary" busy={grant.busy}>
          Grant credits
        </Button>
        <ErrorMessage error={grant.error} />
      </form>
      <form
        class="card"
        aria-label={`Limits of ${team.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          void limits.run(async () => {
            await api.patch(`/admin/v1/teams/${team.id}`, {
              rateLimitPerMinute: rate.trim() === '' ? null : Number(rate),
              concurrencyLimit: concurrency.trim() === '' ? null : Number(concurrency),
              zeroDataRetention: zdr,
            });
            onChanged();
          });
        }}
      >
        <h3>Limits</h3>
        <Field
          label="Requests per minute (empty: server default, 0: unlimited)"
          type="number"
          min={0}
          value={rate}
          onInput={setRate}
        />
        <Field
          label="Concurrent browser scrapes (empty: server default)"
          type="number"
          min={1}
          value={concurrency}
          onInput={setConcurrency}
        />
        <Checkbox label="Zero data retention" checked={zdr} onChange={setZdr} />
        <Button type="submit" variant="primary" busy={limits.busy}>
          Save limits
        </Button>
        <ErrorMessage error={limits.error} />
      </form>
    </div>
  );
}

/** The deployment: teams, keys (create, revoke), credit grants, limits, and the health of every service. */
export function OperatorPage() {
  const api = useAdminApi();
  const teams = useLoad(() => api.get<AdminTeamsResponse>('/admin/v1/teams'), []);
  const [selected, setSelected] = useState<string>();
  const [newTeam, setNewTeam] = useState('');
  const [credits, setCredits] = useState('');
  const create = useAction();
  const team = teams.data?.data.find((candidate) => candidate.id === selected);
  return (
    <div>
      <PageTitle title="Operator">Operator</PageTitle>
      <SystemHealth />
      <section aria-labelledby="teams-title" class="card">
        <h2 id="teams-title">Teams</h2>
        <ErrorMessage error={teams.error} />
        {teams.loading && !teams.data && <Loading />}
        {teams.data && (
          <div class="table-scroll">
            <table>
              <caption>
                Defaults: {formatNumber(teams.data.defaults.rateLimitPerMinute)} requests per minute,{' '}
                {formatNumber(teams.data.defaults.concurrencyLimit)} concurrent browser scrapes
              </caption>
              <thead>
                <tr>
                  <th scope="col">Team</th>
                  <th scope="col" class="number">
                    Credits
                  </th>
                  <th scope="col">Rate limit</th>
                  <th scope="col">Concurrency</th>
                  <th scope="col">Zero data retention</th>
                  <th scope="col" class="number">
                    Active keys
                  </th>
                  <th scope="col">Last used</th>
                </tr>
              </thead>
              <tbody>
                {teams.data.data.map((entry) => (
                  <tr key={entry.id} aria-selected={entry.id === selected ? 'true' : undefined}>
                    <th scope="row">
                      <button
                        type="button"
                        class="link-button"
                        aria-pressed={entry.id === selected}
                        onClick={() => setSelected(entry.id)}
                      >
                        {entry.name}
                      </button>
                    </th>
                    <td class="number">{formatNumber(entry.credits)}</td>
                    <td>{entry.rateLimitPerMinute ?? 'default'}</td>
                    <td>{entry.concurrencyLimit ?? 'default'}</td>
                    <td>{entry.zeroDataRetention ? 'yes' : 'no'}</td>
                    <td class="number">{entry.activeKeys}</td>
                    <td>{formatTime(entry.lastUsedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <form
          class="inline-form"
          aria-label="Create a team"
          onSubmit={(event) => {
            event.preventDefault();
            void create.run(async () => {
              const answer = await api.post<{ data: AdminTeam }>('/admin/v1/teams', {
                name: newTeam.trim(),
                ...(credits.trim() ? { credits: Number(credits) } : {}),
              });
              setNewTeam('');
              setCredits('');
              teams.reload();
              setSelected(answer.data.id);
            });
          }}
        >
          <Field label="New team name" value={newTeam} onInput={setNewTeam} required />
          <Field label="Initial credits" type="number" min={0} value={credits} onInput={setCredits} />
          <Button type="submit" variant="primary" busy={create.busy}>
            Create team
          </Button>
        </form>
        <ErrorMessage error={create.error} />
      </section>
      {team && (
        <section aria-labelledby="team-title" class="card">
          <h2 id="team-title">Team {team.name}</h2>
          <TeamSettings key={team.id} team={team} onChanged={teams.reload} />
          <Keys team={team} onChanged={teams.reload} />
        </section>
      )}
    </div>
  );
}
