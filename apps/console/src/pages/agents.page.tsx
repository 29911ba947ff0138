import { useEffect, useState } from 'preact/hooks';

import type {
  AgentListResponse,
  AgentSnapshotResponse,
  AgentStatusResponse,
  AgentTraceEvent,
  AgentTraceResponse,
} from '@quarry/contracts';

import { Button, CodeBlock, ErrorMessage, Loading, PageTitle, StatusBadge, useLoad } from '../components/ui';
import { useTeamApi } from '../lib/console-context';
import { formatDuration, formatJson, formatNumber, formatTime } from '../lib/format';
import { href } from '../lib/router';

/** The team's agent runs, newest first. */
export function AgentsPage() {
  const api = useTeamApi();
  const { data, error, loading, reload } = useLoad(() => api.get<AgentListResponse>('/v2/agent'), []);
  return (
    <div>
      <PageTitle title="Agent runs">Agent runs</PageTitle>
      <Button onClick={reload}>Refresh</Button>
      <ErrorMessage error={error} />
      {loading && !data && <Loading />}
      {data && data.agents.length === 0 && <p>No agent runs yet.</p>}
      {data && data.agents.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Agent runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Prompt</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.agents.map((agent) => (
                <tr key={agent.id}>
                  <td>
                    <a href={href(`/agents/${agent.id}`)}>{formatTime(agent.createdAt)}</a>
                  </td>
                  <td class="target">{agent.options?.prompt ?? agent.targetHint}</td>
                  <td>
                    <StatusBadge status={agent.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

const PHASE: Record<string, string> = {
  'run.started': 'Run started',
  'run.cancel_requested': 'Cancel requested',
  'run.finished': 'Run finished',
  'agent.started': 'Agent started',
  'agent.finished': 'Agent finished',
  'progress.reported': 'Plan step',
  'reasoning.summary': 'Reasoning',
  'tool_call.started': 'Tool call',
  'tool_call.finished': 'Tool result',
  'artifact.updated': 'Snapshot',
  'error.occurred': 'Error',
};

/** The URL a tool call reads, when its parameters name one. */
function urlOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  return typeof record['url'] === 'string' ? record['url'] : undefined;
}

function EventBody({ event, runId }: { event: AgentTraceEvent; runId: string }) {
  const api = useTeamApi();
  const [snapshot, setSnapshot] = useState<string>();
  const [error, setError] = useState<unknown>();
  switch (event.type) {
    case 'progress.reported':
      return (
        <p>
          <span class="muted">{event.phase}:</span> {event.message}
        </p>
      );
    case 'reasoning.summary':
      return <p>{event.text}</p>;
    case 'tool_call.started':
      return (
        <p>
          <code>{event.toolName}</code>{' '}
          {urlOf(event.parameters) ? (
            <span class="target">reads {urlOf(event.parameters)}</span>
          ) : (
            <span class="muted">{JSON.stringify(event.parameters).slice(0, 200)}</span>
          )}
        </p>
      );
    case 'tool_call.finished':
      return (
        <details>
          <summary>
            <code>{event.toolName}</code> returned
          </summary>
          <CodeBlock code={formatJson(event.result)} label="tool result JSON" />
        </details>
      );
    case 'artifact.updated':
      return (
        <div>
          <p>
            {event.artifact.kind} artifact {event.artifact.change}
            {event.artifact.itemCount !== undefined ? ` (${event.artifact.itemCount} items)` : ''}{' '}
            <Button
              onClick={() =>
                api
                  .get<AgentSnapshotResponse>(`/v2/agent/${runId}/snapshots/${event.artifact.snapshotId}`)
                  .then(
                    (answer) => setSnapshot(answer.snapshot),
                    (problem: unknown) => setError(problem),
                  )
              }
              label={`Show snapshot ${event.artifact.snapshotId}`}
            >
              Show snapshot
            </Button>
          </p>
          <ErrorMessage error={error} />
          {snapshot !== undefined && <CodeBlock code={snapshot} label="snapshot" />}
        </div>
      );
    case 'run.finished':
      return (
        <p>
          Outcome <StatusBadge status={event.outcome === 'succeeded' ? 'completed' : 'failed'} />{' '}
          {event.outcome}
          {event.error ? ` — ${event.error.code}: ${event.error.message}` : ''}
        </p>
      );
    case 'agent.finished':
      return (
        <p>
          {event.outcome} after {formatDuration(event.durationMs)}
          {event.error ? ` — ${event.error.message}` : ''}
        </p>
      );
    case 'error.occurred':
      return (
        <p class="error-cell">
          {event.error.code}: {event.error.message}
        </p>
      );
    default:
      return null;
  }
}

/** One run: its status, the trace as a timeline (plan steps, tool calls, pages read, snapshots), credits, cancel. */
export function AgentPage({ id }: { id: string }) {
  const api = useTeamApi();
  const [status, setStatus] = useState<AgentStatusResponse>();
  const [trace, setTrace] = useState<AgentTraceResponse>();
  const [error, setError] = useState<unknown>();
  const [cancelError, setCancelError] = useState<unknown>();
  const [cancelling, setCancelling] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const [nextStatus, nextTrace] = await Promise.all([
          api.get<AgentStatusResponse>(`/v2/agent/${id}`),
          api.get<AgentTraceResponse>(`/v2/agent/${id}/trace`),
        ]);
        if (stopped) return;
        setStatus(nextStatus);
        setTrace(nextTrace);
        setError(undefined);
        if (nextStatus.status === 'processing') timer = setTimeout(() => void load(), 2_000);
      } catch (problem) {
        if (!stopped) setError(problem);
      }
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, tick]);

  const cancel = async () => {
    setCancelling(true);
    setCancelError(undefined);
    try {
      await api.delete(`/v2/agent/${id}`);
      setTick((value) => value + 1);
    } catch (problem) {
      setCancelError(problem);
    } finally {
      setCancelling(false);
    }
  };

  const start = trace?.events[0] ? Date.parse(trace.events[0].occurredAt) : 0;
  const pagesRead =
    trace?.events.filter((event) => event.type === 'tool_call.started' && urlOf(event.parameters)).length ??
    0;
  return (
    <div>
      <PageTitle title="Agent run">Agent run</PageTitle>
      <p>
        <a href={href('/agents')}>Back to agent runs</a>
      </p>
      <ErrorMessage error={error} />
      {!status && !error && <Loading />}
      {status && (
        <dl class="facts">
          <dt>Id</dt>
          <dd>
            <code>{id}</code>
          </dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={status.status} />
            {status.error ? <span class="error-cell"> {status.error}</span> : null}
          </dd>
          <dt>Credits</dt>
          <dd>{formatNumber(trace?.creditsUsed ?? status.creditsUsed)}</dd>
          <dt>Pages read</dt>
          <dd>{pagesRead}</dd>
          <dt>Model</dt>
          <dd>{status.model}</dd>
        </dl>
      )}
      {status?.status === 'processing' && (
        <Button variant="danger" busy={cancelling} onClick={cancel}>
          Cancel run
        </Button>
      )}
      <ErrorMessage error={cancelError} />
      {trace && (
        <section aria-labelledby="trace-title">
          <h2 id="trace-title">Trace ({trace.events.length} events)</h2>
          <ol class="timeline">
            {trace.events.map((event) => (
              <li key={event.eventId} class={`event ${event.type.replace(/[._]/g, '-')}`}>
                <p class="event-head">
                  <span class="event-time">+{formatDuration(Date.parse(event.occurredAt) - start)}</span>{' '}
                  <strong>{PHASE[event.type] ?? event.type}</strong>{' '}
                  <span class="muted">
                    {event.agent.name === event.agent.role
                      ? event.agent.role
                      : `${event.agent.role} ${event.agent.name}`}
                  </span>
                </p>
                <EventBody event={event} runId={id} />
              </li>
            ))}
          </ol>
        </section>
      )}
      {status?.data !== undefined && (
        <section aria-labelledby="data-title">
          <h2 id="data-title">Result</h2>
          <CodeBlock code={formatJson(status.data)} label="agent result JSON" />
        </section>
      )}
    </div>
  );
}
