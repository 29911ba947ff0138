import { AppError } from '@quarry/contracts';
import type { JobRecord } from '@quarry/jobs';

import type { CollectionKind, CollectionOptions, CollectionRow, NewPage } from '../frontier/frontier.types';
import { IdempotencyConflict } from './collection.repository';
import type { Caller, CollectionServiceDeps } from './collection.types';

export interface CollectionDraft {
  id: string;
  caller: Caller;
  kind: CollectionKind;
  url: string | null;
  input: unknown;
  options: CollectionOptions;
  pageLimit: number;
  maxConcurrency: number;
  delayMs: number;
  webhook?: CollectionRow['webhook'];
  zeroDataRetention: boolean;
  idempotencyKey?: string;
  pages: NewPage[];
}

/** Stores a new crawl or batch with its first pages and its `started` webhook event; a reused idempotency key is a 409. */
export async function recordCollection(
  deps: Pick<CollectionServiceDeps, 'collections' | 'events' | 'settings'>,
  draft: CollectionDraft,
): Promise<void> {
  const webhook = draft.webhook ?? undefined;
  try {
    await deps.collections.create({
      id: draft.id,
      teamId: draft.caller.teamId,
      apiKeyId: draft.caller.apiKeyId,
      kind: draft.kind,
      url: draft.url,
      input: draft.input,
      options: draft.options,
      pageLimit: draft.pageLimit,
      maxConcurrency: draft.maxConcurrency,
      delayMs: draft.delayMs,
      webhook,
      zeroDataRetention: draft.zeroDataRetention,
      idempotencyKey: draft.idempotencyKey,
      expiresAt: new Date(Date.now() + deps.settings.retentionHours * 3_600_000),
      pages: draft.pages,
      started: deps.events.started({ kind: draft.kind, webhook: webhook ?? null }),
    });
  } catch (error) {
    if (error instanceof IdempotencyConflict)
      throw new AppError('CONFLICT', { message: 'Idempotency key already used' });
    throw error;
  }
}

/** The caller's collection of that kind; another team's is reported exactly like an unknown one. */
export async function findCollection(
  deps: Pick<CollectionServiceDeps, 'jobs' | 'frontier'>,
  caller: Caller,
  kind: CollectionKind,
  id: string,
): Promise<{ job: JobRecord; collection: CollectionRow }> {
  const job = await deps.jobs.findForTeam(id, caller.teamId, kind);
  const collection = job ? await deps.frontier.loadCollection(id) : undefined;
  if (!job || !collection) throw new AppError('JOB_NOT_FOUND');
  return { job, collection };
}
