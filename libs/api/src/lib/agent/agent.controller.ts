import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { AgentService } from '@quarry/agent/orchestrator';
import { agentListQuerySchema, agentRequestSchema, type AgentRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations(
  { method: 'post', path: '/v2/agent', summary: 'Start an agent run', tag: 'agent', body: agentRequestSchema, statuses: [402, 422] },
  { method: 'get', path: '/v2/agent', summary: 'Agent runs of the team (?before=<unix ms>)', tag: 'agent' },
  { method: 'get', path: '/v2/agent/{jobId}', summary: 'Status of an agent run', tag: 'agent', uuidParams: ['jobId'] },
  {
    method: 'get',
    path: '/v2/agent/threads/{threadId}',
    summary: 'A thread of agent runs, oldest turn first (?includeData=true)',
    tag: 'agent',
    uuidParams: ['threadId'],
  },
  { method: 'get', path: '/v2/agent/{jobId}/trace', summary: 'Ordered trace events of a run', tag: 'agent', uuidParams: ['jobId'] },
  {
    method: 'get',
    path: '/v2/agent/{jobId}/snapshots/{snapshotId}',
    summary: 'A snapshot of the run artefact',
    tag: 'agent',
    uuidParams: ['jobId', 'snapshotId'],
  },
  { method: 'delete', path: '/v2/agent/{jobId}', summary: 'Cancel a run', tag: 'agent', uuidParams: ['jobId'], statuses: [409] },
);

/** Agent runs (spec §4.3, compat §13). */
@Controller('v2/agent')
export class AgentController {
  constructor(@Inject(AgentService) private readonly agents: AgentService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'agent', rateLimit: 'agent' })
  start(
    @CurrentAuth() auth: AuthContext,
    @Body(new ZodValidationPipe(agentRequestSchema)) request: AgentRequest,
  ) {
    return this.agents.start(auth, request);
  }

  @Get()
  @Auth({ scope: 'agent', rateLimit: 'status' })
  list(
    @CurrentAuth() auth: AuthContext,
    @Query(new ZodValidationPipe(agentListQuerySchema)) query: { before?: number },
  ) {
    return this.agents.list(auth, query.before);
  }

  @Get('threads/:threadId')
  @Auth({ scope: 'agent', rateLimit: 'status', uuidParams: ['threadId'] })
  thread(
    @CurrentAuth() auth: AuthContext,
    @Param('threadId') threadId: string,
    @Query('includeData') includeData?: string,
  ) {
    return this.agents.thread(auth, threadId, includeData === 'true');
  }

  @Get(':jobId')
  @Auth({ scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] })
  status(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.agents.status(auth, jobId);
  }

  @Get(':jobId/trace')
  @Auth({ scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] })
  trace(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Query('liveView') liveView?: string,
  ) {
    return this.agents.trace(auth, jobId, liveView === 'true');
  }

  @Get(':jobId/snapshots/:snapshotId')
  @Auth({ scope: 'agent', rateLimit: 'status', uuidParams: ['jobId'] })
  snapshot(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Param('snapshotId') snapshotId: string,
  ) {
    return this.agents.snapshot(auth, jobId, snapshotId);
  }

  @Delete(':jobId')
  @HttpCode(200)
  @Auth({ scope: 'agent', uuidParams: ['jobId'] })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.agents.cancel(auth, jobId);
  }
}
