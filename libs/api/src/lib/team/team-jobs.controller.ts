import { Controller, Inject, Param } from '@nestjs/common';

import {
  teamJobDetailResponseSchema,
  teamJobDocumentResponseSchema,
  teamJobDocumentsQuerySchema,
  type TeamJobsQuery,
  teamJobsQuerySchema,
  teamJobsResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteQuery } from '../openapi/route-input.decorator';
import { TeamJobsService } from './team-jobs.service';

/** Activity of the caller's team: its jobs of every kind (docs/console.md). */
@Controller('v2/team/jobs')
export class TeamJobsController {
  constructor(@Inject(TeamJobsService) private readonly jobs: TeamJobsService) {}

  @Route({
    method: 'get',
    summary: 'Jobs of the team across kinds and its monitor checks, newest first (?kind&status&limit&cursor)',
    tag: 'account',
    statuses: [400],
    auth: { scope: 'account', rateLimit: 'status' },
    query: teamJobsQuerySchema,
    response: teamJobsResponseSchema,
  })
  list(@CurrentAuth() auth: AuthContext, @RouteQuery() query: TeamJobsQuery) {
    return this.jobs.list(auth, query);
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'A job of the team with its input, result and stored documents (?skip&limit of documents)',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status', uuidParams: ['jobId'] },
    query: teamJobDocumentsQuerySchema,
    response: teamJobDetailResponseSchema,
  })
  detail(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @RouteQuery() page: { skip: number; limit: number },
  ) {
    return this.jobs.detail(auth, jobId, page);
  }

  @Route({
    method: 'get',
    path: ':jobId/documents/:documentId',
    summary: 'A document stored for a job of the team',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status', uuidParams: ['jobId', 'documentId'] },
    response: teamJobDocumentResponseSchema,
  })
  document(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Param('documentId') documentId: string,
  ) {
    return this.jobs.document(auth, jobId, documentId);
  }
}
