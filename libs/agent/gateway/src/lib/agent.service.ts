import { randomUUID } from 'node:crypto';

import {
  AGENT_MESSAGES,
  type AgentRunRecord,
  type AgentRunRepository,
  agentStatusBody,
  type AgentStatusInput,
  chatMessage,
  initialMemory,
  orchestrator,
  type PendingEvent,
  publicStatus,
  requestCancel,
  threadRunStatus,
  type ThreadTurn,
} from '@quarry/agent/domain';
import { CreditsService } from '@quarry/billing';
import {
  AGENT_LIMITS,
  type AgentListResponse,
  type AgentModel,
  type AgentRequest,
  type AgentSnapshotResponse,
  type AgentStartResponse,
  type AgentStatusResponse,
  type AgentThreadResponse,
  type AgentTraceResponse,
  type AgentWorkMessage,
  AppError,
  TRACED_AGENT_MODEL,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { checkJsonSchema } from '@quarry/llm';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import type { WebhookTargetPolicy } from '@quarry/platform/net';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import type { WebhookOutboxRepository } from '@quarry/webhooks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AgentServiceDeps {
  runs: AgentRunRepository;
  credits: CreditsService;
  bus: MessageBus;
  config: AppConfig;
  metrics: PlatformMetrics;
  logger: Logger;
  /** Refuses webhooks the outbound policy would never deliver to. */
  webhookTargets: WebhookTargetPolicy;
  /** How a job's webhook deliveries fared (status bodies). */
  webhookDeliveries: Pick<WebhookOutboxRepository, 'deliverySummary'>;
}

/** The agent API (docs/agent.md#api): create, poll, trace, snapshot, cancel and list runs. */
export class AgentService {
  constructor(private readonly deps: AgentServiceDeps) {}

  async start(auth: AuthContext, request: AgentRequest): Promise<AgentStartResponse> {
    this.assertAllowed(auth);
    if (request.webhook) await this.deps.webhookTargets.assertAllowed(request.webhook.url);
    if (request.schema) {
      const check = checkJsonSchema(request.schema);
      if (!check.valid) throw new AppError('UNPROCESSABLE_ENTITY', { message: check.message });
    }
    await this.deps.credits.ensureAvailable(auth.teamId, AGENT_LIMITS.minimumCredits);
    const id = randomUUID();
    const strategy = this.deps.config.llm.baseUrl ? 'model' : 'deterministic';
    const thread = await this.continuedThread(auth, request.threadId);
    const turn = { id: thread?.id ?? randomUUID(), turn: thread?.turn ?? 1 };
    try {
      await this.deps.runs.create({
        id,
        teamId: auth.teamId,
        apiKeyId: auth.apiKeyId,
        request,
        webhook: request.webhook,
        memory: initialMemory(request.urls ?? [], strategy, thread),
        expiresAt: new Date(Date.now() + AGENT_LIMITS.retentionHours * 3_600_000),
        thread: turn,
        // The trace opens when the run is accepted, whatever happens to it next (even a cancel before it is picked up).
        events: [{ key: 'start:run', agent: orchestrator(id), body: { type: 'run.started' } }],
      });
    } catch (error) {
      // Two follow-ups of one thread at once: the second takes the same turn and is refused.
      if ((error as { code?: string }).code === 'P2002')
        throw new AppError('CONFLICT', { message: AGENT_MESSAGES.threadBusy });
      throw error;
    }
    const message: AgentWorkMessage = { type: 'advance', runId: id, teamId: auth.teamId };
    try {
      await this.deps.bus.publish('agentWork', message, { key: id });
    } catch (error) {
      this.deps.logger.error(
        { err: error, runId: id },
        'agent run could not be submitted to the orchestrators',
      );
      await this.deps.runs
        .finish(id, {
          whenState: ['queued'],
          state: 'failed',
          outcome: 'failed',
          error: {
            code: 'internal',
            source: 'system',
            retryable: true,
            message: AGENT_MESSAGES.passthroughFailed,
          },
          credits: 0,
          events: [],
          stoppedTaskEvents: () => [],
        })
        .catch(() => undefined);
      throw new AppError('UNKNOWN_ERROR', { message: AGENT_MESSAGES.passthroughFailed, cause: error });
    }
    this.deps.metrics.jobsQueued.inc({ kind: 'agent' });
    return { success: true, id, threadId: turn.id, threadTurn: turn.turn };
  }

  async status(auth: AuthContext, jobId: string): Promise<AgentStatusResponse> {
    const run = await this.find(auth, jobId);
    const body = agentStatusBody(statusInput(run));
    const webhookDelivery = run.request.webhook
      ? await this.deps.webhookDeliveries.deliverySummary(run.id)
      : undefined;
    return webhookDelivery ? { ...body, webhookDelivery } : body;
  }

  /** `GET /v2/agent/threads/:threadId` (docs/agent.md): the thread's runs, oldest turn first. */
  async thread(auth: AuthContext, threadId: string, includeData: boolean): Promise<AgentThreadResponse> {
    this.assertAllowed(auth);
    const runs = await this.deps.runs.threadRuns(auth.teamId, threadId);
    if (runs.length === 0) throw new AppError('NOT_FOUND', { message: AGENT_MESSAGES.threadNotFound });
    const statuses = runs.map((run) => threadRunStatus(run.state, run.outcome));
    return {
      success: true,
      thread: {
        id: threadId,
        createdAt: runs[0].createdAt.toISOString(),
        updatedAt: new Date(Math.max(...runs.map((run) => run.updatedAt.getTime()))).toISOString(),
        status: statuses.includes('processing') ? 'running' : 'idle',
        runs: runs.map((run, index) => {
          const status = statuses[index];
          const body = agentStatusBody(statusInput(run));
          return {
            id: run.id,
            turn: run.threadTurn ?? index + 1,
            mode: run.mode,
            prompt: run.prompt,
            ...(run.request.urls ? { urls: run.request.urls } : {}),
            ...(run.request.schema ? { schema: run.request.schema } : {}),
            ...(run.request.effort ? { effort: run.request.effort } : {}),
            status,
            createdAt: run.createdAt.toISOString(),
            finishedAt: run.finishedAt?.toISOString() ?? null,
            creditsUsed: status === 'processing' ? null : body.creditsUsed,
            message: body.message ?? (status === 'succeeded' ? null : run.errorMessage),
            ...(includeData && status === 'succeeded' ? { data: run.data } : {}),
          };
        }),
      },
    };
  }

  /**
   * A follow-up turn: the thread must be the team's (404 otherwise) and idle (409); the new run starts
   * from the pages the thread already read and sees the earlier turns.
   */
  private async continuedThread(
    auth: AuthContext,
    threadId: string | undefined,
  ): Promise<{ id: string; turn: number; urls: string[]; conversation: ThreadTurn[] } | undefined> {
    if (threadId === undefined) return undefined;
    const runs = UUID.test(threadId) ? await this.deps.runs.threadRuns(auth.teamId, threadId) : [];
    if (runs.length === 0) throw new AppError('NOT_FOUND', { message: AGENT_MESSAGES.threadNotFound });
    if (runs.some((run) => publicStatus(run.state) === 'processing'))
      throw new AppError('CONFLICT', { message: AGENT_MESSAGES.threadBusy });
    const urls: string[] = [];
    const conversation: ThreadTurn[] = [];
    for (const run of runs) {
      urls.push(...(run.request.urls ?? []));
      urls.push(...run.memory.pages.filter((page) => page.ok).map((page) => page.url));
      conversation.push({
        prompt: run.prompt,
        reply:
          run.state === 'completed'
            ? chatMessage(run.data)
            : `(this turn ended without an answer: ${run.errorMessage ?? run.outcome ?? 'failed'})`,
      });
    }
    return {
      id: threadId,
      turn: Math.max(...runs.map((run) => run.threadTurn ?? 1)) + 1,
      urls,
      conversation,
    };
  }

  async trace(auth: AuthContext, jobId: string, liveView = false): Promise<AgentTraceResponse> {
    const run = await this.find(auth, jobId);
    if (run.model !== TRACED_AGENT_MODEL)
      throw new AppError('BAD_REQUEST', { message: AGENT_MESSAGES.traceModel });
    const response: AgentTraceResponse = {
      success: true,
      id: run.id,
      events: await this.deps.runs.events(run.id),
      creditsUsed: publicStatus(run.state) === 'failed' ? 0 : run.creditsSpent,
    };
    // Runs read pages through the scrape workers; there is no live browser session to show.
    if (liveView) response.activeBrowserSessions = [];
    return response;
  }

  async snapshot(auth: AuthContext, jobId: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    this.assertAllowed(auth);
    if (!UUID.test(snapshotId))
      throw new AppError('BAD_REQUEST', { message: AGENT_MESSAGES.invalidSnapshotId });
    const run = await this.find(auth, jobId);
    if (run.model !== TRACED_AGENT_MODEL)
      throw new AppError('BAD_REQUEST', { message: AGENT_MESSAGES.snapshotModel });
    const snapshot = await this.deps.runs.snapshot(run.id, snapshotId);
    if (!snapshot) throw new AppError('NOT_FOUND', { message: AGENT_MESSAGES.snapshotNotFound });
    return { success: true, id: run.id, snapshotId: snapshot.id, snapshot: snapshot.content };
  }

  /** Cancel (docs/agent.md#lifecycle): running → cancelling, then failed; 409 when finished or already cancelling. */
  async cancel(auth: AuthContext, jobId: string): Promise<{ success: true }> {
    this.assertAllowed(auth);
    const events: PendingEvent[] = [
      {
        key: 'cancel:requested',
        agent: orchestrator(jobId),
        body: { type: 'run.cancel_requested', reason: 'user' },
      },
    ];
    const found = await this.deps.runs.requestCancel(
      jobId,
      auth.teamId,
      (state) => requestCancel(state).ok,
      events,
    );
    if (!found) throw new AppError('JOB_NOT_FOUND', { message: AGENT_MESSAGES.notFound });
    const decision = requestCancel(found);
    if (!decision.ok) {
      throw new AppError('CONFLICT', {
        message:
          decision.reason === 'already_finished'
            ? AGENT_MESSAGES.alreadyFinished
            : AGENT_MESSAGES.alreadyCancelled,
      });
    }
    // Wake an orchestrator so the run ends promptly; the sweeper covers a lost message.
    await this.deps.bus
      .publish(
        'agentWork',
        { type: 'advance', runId: jobId, teamId: auth.teamId } satisfies AgentWorkMessage,
        { key: jobId },
      )
      .catch((error: unknown) => {
        this.deps.logger.warn(
          { err: error, runId: jobId },
          'cancel notification not published; the sweeper will pick the run up',
        );
      });
    return { success: true };
  }

  async list(auth: AuthContext, before?: number): Promise<AgentListResponse> {
    this.assertAllowed(auth);
    const limit = AGENT_LIMITS.listPageSize;
    const runs = await this.deps.runs.listForTeam(
      auth.teamId,
      before === undefined ? undefined : new Date(before),
      limit,
    );
    const response: AgentListResponse = {
      success: true,
      agents: runs.map((run) => ({
        id: run.id,
        createdAt: run.createdAt.toISOString(),
        targetHint: targetHint(run),
        origin: run.origin,
        ...(run.integration ? { integration: run.integration } : {}),
        settings: { hidden: false, starred: false },
        status: publicStatus(run.state),
        options: {
          ...(run.request.urls ? { urls: run.request.urls } : {}),
          prompt: run.prompt,
          ...(run.request.schema ? { schema: run.request.schema } : {}),
          model: run.model as AgentModel,
          ...(run.request.effort ? { effort: run.request.effort } : {}),
        },
      })),
    };
    if (runs.length === limit)
      response.next = `${this.deps.config.service.publicUrl}/v2/agent?before=${runs[runs.length - 1].createdAt.getTime()}`;
    return response;
  }

  private async find(auth: AuthContext, jobId: string): Promise<AgentRunRecord> {
    this.assertAllowed(auth);
    const run = await this.deps.runs.findForTeam(jobId, auth.teamId);
    if (!run) throw new AppError('JOB_NOT_FOUND', { message: AGENT_MESSAGES.notFound });
    return run;
  }

  /** Teams with enforced zero data retention cannot run agent jobs (docs/agent.md#api). */
  private assertAllowed(auth: AuthContext): void {
    if (auth.zeroDataRetention)
      throw new AppError('BAD_REQUEST', { message: AGENT_MESSAGES.zeroDataRetention });
  }
}

function statusInput(run: AgentRunRecord): AgentStatusInput {
  return { ...run, effort: run.request.effort, hasSchema: !!run.request.schema };
}

function targetHint(run: AgentRunRecord): string {
  const first = run.request.urls?.[0];
  if (first) {
    try {
      return new URL(first).hostname;
    } catch {
      return first;
    }
  }
  return run.prompt.length > 80 ? `${run.prompt.slice(0, 77)}...` : run.prompt;
}
