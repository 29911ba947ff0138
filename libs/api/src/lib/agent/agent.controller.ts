import { Controller, Inject, Param, Query } from '@nestjs/common';

import { AgentService } from '@quarry/agent/gateway';
import {
  agentListQuerySchema,
  agentListResponseSchema,
  type AgentRequest,
  agentRequestSchema,
  agentSnapshotResponseSchema,
  agentStartResponseSchema,
  agentStatusResponseSchema,
  agentThreadResponseSchema,
  agentTraceResponseSchema,
  monitorDeleteResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody, RouteQuery } from '../openapi/route-input.decorator';

/** Agent runs (docs/agent.md#api). */
@Controller('v2/agent')
export class AgentController {
  constructor(@Inject(AgentService) private readonly agents: AgentService) {}

  @Route({
    method: 'post',
    summary: 'Start an agent run',
    tag: 'agent',
    body: agentRequestSchema,
    // 404: a `threadId` that names no run of the team
    statuses: [402, 404, 422],
    auth: { scope: 'agent', rateLimit: 'agent' },
    response: agentStartResponseSchema,
  })
  start(@CurrentAuth() auth: AuthContext, @RouteBody() request: AgentRequest) {
    return this.agents.start(auth, request);
  }

  @Route({
    method: 'get',
    summary: 'Agent runs of the team (?before=<unix ms>)',
    tag: 'agent',
    statuses: [400],
    auth: { scope: 'agent', rateLimit: 'status' },
    query: agentListQuerySchema,
    response: agentListResponseSchema,
  })
  list(@CurrentAuth() auth: AuthContext, @RouteQuery() query: { before?: number }) {
    return this.agents.list(auth, query.before);
  }

  @Route({
    method: 'get',
    path: 'threads/:threadId',
    summary: 'A thread of agent runs, oldest turn first (?includeData=true)',
    tag: 'agent',
    auth: { scope: 'agent', rateLimit: 'status', uuidParams: ['threadId'] },
    response: agentThreadResponseSchema,
  })
  thread(
    @CurrentAuth() auth: AuthContext,
    @Param('threadId') threadId: string,
    @Query('includeData') includeData?: string,
  ) {
    return this.agents.thread(auth, threadId, includeData === 'true');
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'Status of an agent run',
    tag: 'agent',
    auth: { scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] },
    response: agentStatusResponseSchema,
  })
  status(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.agents.status(auth, jobId);
  }

  @Route({
    method: 'get',
    path: ':jobId/trace',
    summary: 'Ordered trace events of a run',
    tag: 'agent',
    auth: { scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] },
    response: agentTraceResponseSchema,
  })
  trace(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Query('liveView') liveView?: string,
  ) {
    return this.agents.trace(auth, jobId, liveView === 'true');
  }

  @Route({
    method: 'get',
    path: ':jobId/snapshots/:snapshotId',
    summary: 'A snapshot of the run artefact',
    tag: 'agent',
    auth: { scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] },
    response: agentSnapshotResponseSchema,
  })
  snapshot(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Param('snapshotId') snapshotId: string,
  ) {
    return this.agents.snapshot(auth, jobId, snapshotId);
  }

  @Route({
    method: 'delete',
    path: ':jobId',
    summary: 'Cancel a run',
    tag: 'agent',
    statuses: [409],
    auth: { scope: 'agent', uuidParams: ['jobId'] },
    response: monitorDeleteResponseSchema,
  })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.agents.cancel(auth, jobId);
  }
}
