import { useEffect, useState } from 'preact/hooks';

import type {
  CollectionErrorsResponse,
  CollectionStatusResponse,
  TeamJobDetailResponse,
} from '@quarry/contracts';

import { DocumentView } from '../components/document-view';
import {
  Button,
  CodeBlock,
  ErrorMessage,
  Loading,
  PageTitle,
  ProgressBar,
  StatusBadge,
  useLoad,
} from '../components/ui';
import { useConsole, useTeamApi } from '../lib/console-context';
import { formatDuration, formatJson, formatNumber, formatTime, KIND_LABELS } from '../lib/format';
import { href } from '../lib/router';
import { type CollectionKind, collectionPath, type Progress, watchCollection } from '../lib/watch';

/** Live progress of a running crawl or batch (WebSocket watcher), its per-page errors, and cancel. */
function CollectionProgress({
  kind,
  id,
  onProgress,
  onFinished,
}: {
  kind: CollectionKind;
  id: string;
  onProgress: (progress: Progress) => void;
  onFinished: () => void;
}) {
  const api = useTeamApi();
  const { session } = useConsole();
  const [progress, setProgress] = useState<Progress>();
  const [errors, setErrors] = useState<CollectionErrorsResponse>();
  const [cancelError, setCancelError] = useState<unknown>();
  const [cancelling, setCancelling] = useState(false);
  const path = collectionPath(kind, id);

  useEffect(() => {
    let finished = false;
    const stop = watchCollection(
      kind,
      id,
      session.teamKey ?? '',
      (next) => {
        setProgress(next);
        onProgress(next);
        if (next.status !== 'scraping' && !finished) {
          finished = true;
          void api.get<CollectionErrorsResponse>(`${path}/errors`).then(setErrors, () => undefined);
          onFinished();
        }
      },
      () => api.get<CollectionStatusResponse>(`${path}?limit=1`),
    );
    const errorsTimer = setInterval(
      () => void api.get<CollectionErrorsResponse>(`${path}/errors`).then(setErrors, () => undefined),
      5_000,
    );
    void api.get<CollectionErrorsResponse>(`${path}/errors`).then(setErrors, () => undefined);
    return () => {
      stop();
      clearInterval(errorsTimer);
    };
  }, [kind, id]);

  const cancel = async () => {
    setCancelling(true);
    setCancelError(undefined);
    try {
      await api.delete(path);
    } catch (error) {
      setCancelError(error);
    } finally {
      setCancelling(false);
    }
  };

  return (
    <section class="card" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      {!progress ? (
        <Loading label="Connecting to the watcher…" />
      ) : (
        <>
          <ProgressBar label="Pages done" value={progress.completed} max={progress.total} />
          <p role="status" class="progress-status">
            Status <StatusBadge status={progress.status} /> · {formatNumber(progress.creditsUsed)} credits ·
            live via {progress.via}
          </p>
        </>
      )}
      {progress?.status === 'scraping' && (
        <Button variant="danger" busy={cancelling} onClick={cancel}>
          Cancel {kind === 'crawl' ? 'crawl' : 'batch'}
        </Button>
      )}
      <ErrorMessage error={cancelError} />
      {errors && (errors.errors.length > 0 || errors.robotsBlocked.length > 0) && (
        <details open>
          <summary>
            Page errors ({errors.errors.length})
            {errors.robotsBlocked.length ? `, blocked by robots.txt (${errors.robotsBlocked.length})` : ''}
          </summary>
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {errors.errors.map((entry) => (
                  <tr key={entry.id}>
                    <td class="target">{entry.url}</td>
                    <td>
                      {entry.code ? `${entry.code}: ` : ''}
                      {entry.error}
                    </td>
                  </tr>
                ))}
                {errors.robotsBlocked.map((url) => (
                  <tr key={url}>
                    <td class="target">{url}</td>
                    <td>blocked by robots.txt</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}

/** A document of the job, loaded when chosen. */
function StoredDocument({ jobId, documentId }: { jobId: string; documentId: string }) {
  const api = useTeamApi();
  const { data, error, loading } = useLoad(
    () => api.get<{ data: Record<string, unknown> }>(`/v2/team/jobs/${jobId}/documents/${documentId}`),
    [jobId, documentId],
  );
  if (loading) return <Loading label="Loading the document…" />;
  if (error) return <ErrorMessage error={error} />;
  return data ? <DocumentView document={data.data} label="Document" /> : null;
}

/** One job: what was asked, how it ended, live progress for crawls and batches, and its documents. */
export function JobPage({ id }: { id: string }) {
  const api = useTeamApi();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string>();
  const [live, setLive] = useState<Progress>();
  const { data, error, loading, reload } = useLoad(
    () => api.get<TeamJobDetailResponse>(`/v2/team/jobs/${id}?limit=50&skip=${page * 50}`),
    [id, page],
  );
  const job = data?.data;
  const collection: CollectionKind | undefined =
    job?.kind === 'crawl' ? 'crawl' : job?.kind === 'batch_scrape' ? 'batch' : undefined;
  const running = job && (job.status === 'queued' || job.status === 'active');
  // while the watcher reports, its status and credits are newer than the loaded job's
  const status = live && running ? (live.status === 'scraping' ? 'active' : live.status) : job?.status;
  return (
    <div>
      <PageTitle title={job ? `${KIND_LABELS[job.kind] ?? job.kind} job` : 'Job'}>
        {job ? `${KIND_LABELS[job.kind] ?? job.kind} job` : 'Job'}
      </PageTitle>
      <p>
        <a href={href('/activity')}>Back to activity</a>
      </p>
      {loading && !job && <Loading />}
      <ErrorMessage error={error} />
      {job && (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <code>{job.id}</code>
            </dd>
            <dt>Target</dt>
            <dd class="target">{job.target ?? '(not kept)'}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={status ?? job.status} />
            </dd>
            <dt>Credits</dt>
            <dd>{formatNumber(live && running ? live.creditsUsed : job.creditsUsed)}</dd>
            <dt>Created</dt>
            <dd>{formatTime(job.createdAt)}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(job.durationMs)}</dd>
            {job.error && (
              <>
                <dt>Error</dt>
                <dd class="error-cell">
                  {job.error.code}: {job.error.message}
                </dd>
              </>
            )}
          </dl>
          {collection &&
            (running ? (
              <CollectionProgress kind={collection} id={job.id} onProgress={setLive} onFinished={reload} />
            ) : (
              <CollectionSummary kind={collection} id={job.id} watched={live} />
            ))}
          <details>
            <summary>Request options</summary>
            <CodeBlock code={formatJson(job.input)} label="request options JSON" />
          </details>
          {job.result !== null && job.result !== undefined && (
            <details>
              <summary>Stored result</summary>
              <CodeBlock code={formatJson(job.result)} label="stored result JSON" />
            </details>
          )}
          <section aria-labelledby="documents-title">
            <h2 id="documents-title">Documents ({formatNumber(job.documentCount)})</h2>
            {job.documentCount === 0 ? (
              <p>No stored documents{running ? ' yet' : ''}.</p>
            ) : (
              <div class="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Page</th>
                      <th scope="col">HTTP</th>
                      <th scope="col">Stored</th>
                    </tr>
                  </thead>
                  <tbody>
                    {job.documents.map((document) => (
                      <tr key={document.id} aria-selected={selected === document.id ? 'true' : undefined}>
                        <td>
                          <button
                            type="button"
                            class="link-button"
                            aria-pressed={selected === document.id}
                            onClick={() => setSelected(document.id)}
                          >
                            {document.title || document.url}
                          </button>
                          <div class="muted target">{document.url}</div>
                        </td>
                        <td>{document.statusCode}</td>
                        <td>{formatTime(document.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {job.documentCount > 50 && (
              <p class="pager">
                <Button disabled={page === 0} onClick={() => setPage(page - 1)}>
                  Previous 50
                </Button>{' '}
                <Button disabled={(page + 1) * 50 >= job.documentCount} onClick={() => setPage(page + 1)}>
                  Next 50
                </Button>
              </p>
            )}
            {selected && <StoredDocument jobId={job.id} documentId={selected} />}
          </section>
        </>
      )}
    </div>
  );
}

/** A finished crawl or batch: its final counts and page errors. */
function CollectionSummary({ kind, id, watched }: { kind: CollectionKind; id: string; watched?: Progress }) {
  const api = useTeamApi();
  const path = collectionPath(kind, id);
  const status = useLoad(() => api.get<CollectionStatusResponse>(`${path}?limit=1`), [path]);
  const errors = useLoad(() => api.get<CollectionErrorsResponse>(`${path}/errors`), [path]);
  // a collection watched to its end keeps its last figures while the final status loads
  const shown = status.data ?? watched;
  if (status.error) return <ErrorMessage error={status.error} />;
  if (!shown) return <Loading />;
  return (
    <section class="card" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <ProgressBar label="Pages done" value={shown.completed} max={shown.total} />
      <p class="progress-status">
        Status <StatusBadge status={shown.status} /> · {formatNumber(shown.creditsUsed)} credits
      </p>
      {errors.data && errors.data.errors.length > 0 && (
        <details>
          <summary>Page errors ({errors.data.errors.length})</summary>
          <ul>
            {errors.data.errors.map((entry) => (
              <li key={entry.id}>
                <span class="target">{entry.url}</span>: {entry.code ? `${entry.code}: ` : ''}
                {entry.error}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
