import { Inject, Injectable } from '@nestjs/common';

import {
  AppError,
  type TeamJobDetailResponse,
  type TeamJobsQuery,
  type TeamJobsResponse,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { TeamJobsRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { isCachedAnswer } from '../scrape/cached-answer';

/** The cached document a scrape answered from the cache refers to (see scrape/cached-answer.ts). */
const cachedDocumentOf = (result: unknown) => (isCachedAnswer(result) ? result.cachedDocumentId : undefined);

/** Every job of the caller's team, one job with its documents, one document (`/v2/team/jobs…`). */
@Injectable()
export class TeamJobsService {
  constructor(
    @Inject(TeamJobsRepository) private readonly repository: TeamJobsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(auth: AuthContext, query: TeamJobsQuery): Promise<TeamJobsResponse> {
    const [at, id] = query.cursor ? query.cursor.split('.') : [];
    const rows = await this.repository.list(auth.teamId, {
      kinds: query.kind,
      statuses: query.status,
      limit: query.limit + 1,
      before: at && id ? { createdAt: new Date(Number(at)), id } : undefined,
    });
    const data = rows.slice(0, query.limit);
    const last = data[data.length - 1];
    if (rows.length <= query.limit || !last) return { success: true, data };
    const next = new URLSearchParams({
      limit: String(query.limit),
      cursor: `${Date.parse(last.createdAt)}.${last.id}`,
    });
    if (query.kind.length) next.set('kind', query.kind.join(','));
    if (query.status.length) next.set('status', query.status.join(','));
    return { success: true, data, next: `${this.config.service.publicUrl}/v2/team/jobs?${next}` };
  }

  async detail(
    auth: AuthContext,
    jobId: string,
    page: { skip: number; limit: number },
  ): Promise<TeamJobDetailResponse> {
    const job = await this.repository.find(auth.teamId, jobId);
    if (!job) throw new AppError('JOB_NOT_FOUND');
    let { items, total } = await this.repository.documents(auth.teamId, jobId, page);
    const cached = cachedDocumentOf(job.result);
    if (total === 0 && cached) {
      const document = await this.repository.document(auth.teamId, cached);
      if (document) ({ items, total } = { items: page.skip === 0 ? [document.summary] : [], total: 1 });
    }
    return { success: true, data: { ...job, documents: items, documentCount: total } };
  }

  /** A document stored for the job (or the cached document a scrape of it answered with). */
  async document(auth: AuthContext, jobId: string, documentId: string) {
    const job = await this.repository.find(auth.teamId, jobId);
    const document = job ? await this.repository.document(auth.teamId, documentId) : undefined;
    if (!job || !document || (document.jobId !== jobId && cachedDocumentOf(job.result) !== documentId))
      throw new AppError('NOT_FOUND', { message: 'Document not found' });
    return { success: true as const, data: document.content };
  }
}
