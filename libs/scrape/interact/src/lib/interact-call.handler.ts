import type { Logger } from 'pino';

import { PRICES } from '@quarry/billing';
import {
  AppError,
  INTERACT_MESSAGES,
  type InteractCallMessage,
  type InteractCallResult,
  type InteractStopResult,
  LIMITS,
} from '@quarry/contracts';
import { type JobClaims, type JobOutcomeStore, type JobRepository, WorkerJob } from '@quarry/jobs';
import type { LlmProvider } from '@quarry/llm';
import type { BlobStore } from '@quarry/platform/blob';
import type { MessageBus } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { BrowserPool } from '@quarry/scrape/browser';
import type { InteractSessionRecord, InteractSessionRepository } from '@quarry/scrape/state';

import { answerWithModel, planPrompt } from './prompt/prompt-planner';
import { runPromptPlan, snapshotPage } from './prompt/prompt-runner';
import { runInSandbox } from './sandbox/code-sandbox';
import { SessionPageTarget } from './sandbox/session-page.target';
import type { LiveSession, LiveSessions } from './session/live-sessions';
import {
  captureSessionState,
  closeSlot,
  openSandbox,
  type SessionBrowserSettings,
} from './session/session-page';

export interface InteractCallHandlerDeps {
  jobs: JobRepository;
  claims: JobClaims;
  outcomes: JobOutcomeStore;
  sessions: InteractSessionRepository;
  live: LiveSessions;
  pool: () => BrowserPool | undefined;
  settings: SessionBrowserSettings;
  llm: LlmProvider;
  blobs: BlobStore;
  bus: MessageBus;
  metrics: PlatformMetrics;
  logger: Logger;
  maxDocumentBytes: number;
}

/**
 * Handles the calls of interact sessions on a scrape worker (`interact.calls`): `execute` runs
 * user code in the browser sandbox or a prompt through the action executor on the session's live
 * page, stores the page's state for a restore elsewhere, and records the call's outcome and charge
 * (one `interact` job per call, idempotent by call id); `stop` ends the session, writes its state
 * back to the profile, and frees the page and its browser slot.
 */
export class InteractCallHandler {
  private readonly job: WorkerJob;

  constructor(private readonly deps: InteractCallHandlerDeps) {
    this.job = new WorkerJob(deps, 'interact');
  }

  async handle(message: InteractCallMessage): Promise<void> {
    const ref = { jobId: message.callId, teamId: message.teamId };
    if (!(await this.job.admit(ref))) return;
    if (message.type === 'execute' && Date.now() >= message.deadline) {
      return this.job.fail(ref, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
    }
    if (!(await this.job.claim(ref))) return;
    const startedAt = Date.now();
    this.deps.metrics.jobsRunning.inc({ kind: 'interact' });
    try {
      const result = message.type === 'stop' ? await this.stop(message) : await this.execute(message);
      await this.job.complete(ref, {
        credits: message.type === 'execute' ? PRICES.interact : 0,
        result,
        apiKeyId: message.apiKeyId,
        engine: 'browser',
        startedAt,
      });
    } catch (error) {
      // User code and pages are not safely re-runnable: every failure is the call's outcome.
      const failure = error instanceof AppError ? error : toAppError(error);
      if (!(error instanceof AppError))
        this.deps.logger.warn({ err: error, callId: message.callId }, 'interact call failed');
      await this.job.fail(ref, { code: failure.code, message: failure.message, details: failure.details });
    } finally {
      this.deps.metrics.jobsRunning.dec({ kind: 'interact' });
    }
  }

  private async execute(message: InteractCallMessage): Promise<InteractCallResult> {
    const session = await this.deps.sessions.find(message.sessionId);
    if (!session || session.status !== 'active') {
      throw new AppError('CONFLICT', {
        message:
          'The interact session has ended (stopped or idle too long); call interact again to start a new one',
      });
    }
    const pool = this.deps.pool();
    if (!pool) throw new AppError('SCRAPE_ACTIONS_NOT_SUPPORTED', { message: INTERACT_MESSAGES.noBrowser });
    return this.deps.live.withPage(session, message.callId, message.deadline, async (live) => {
      const result = await this.run(message, live, pool);
      await this.persist(session, live);
      return result;
    });
  }

  private async run(
    message: InteractCallMessage,
    live: LiveSession,
    pool: BrowserPool,
  ): Promise<InteractCallResult> {
    const { slot: page, cdp, viewport } = live.page;
    const deadline = message.deadline;
    const store = async (kind: 'screenshot' | 'pdf', data: Buffer, contentType: string, extension: string) =>
      (
        await this.deps.blobs.put(
          `${kind}s/${message.callId}`,
          data,
          contentType,
          LIMITS.screenshotLifetimeMs,
          extension,
        )
      ).url;
    const target = new SessionPageTarget({
      page: page.page,
      cdp,
      resolver: page.guard.resolver,
      viewport,
      deadline,
      maxDocumentBytes: this.deps.maxDocumentBytes,
      storeScreenshot: (data, contentType, extension) => store('screenshot', data, contentType, extension),
    });
    if (message.code !== undefined) {
      const sandbox = await openSandbox(pool, this.deps.settings);
      try {
        return await runInSandbox(sandbox, { code: message.code, deadline, target, targetCdp: cdp });
      } finally {
        await closeSlot(sandbox).catch(() => undefined);
      }
    }
    const usage = { teamId: message.teamId, jobId: message.callId };
    const planned = await planPrompt(message.prompt ?? '', {
      llm: this.deps.llm,
      snapshot: () => snapshotPage(cdp),
      usage,
      deadline,
    });
    return runPromptPlan(
      planned.plan,
      {
        actions: {
          page: page.page,
          cdp,
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
          deadline,
          viewport,
          store,
        },
        cdp,
        target,
        answer: planned.modelAnswers
          ? (question, text) => answerWithModel(this.deps.llm, question, text, { usage, deadline })
          : undefined,
      },
      planned.note,
    );
  }

  /** After a call: the page's URL and storage for a restore elsewhere; the profile lock follows the session. */
  private async persist(session: InteractSessionRecord, live: LiveSession): Promise<void> {
    const captured = await captureSessionState(live.page, live.state).catch((error: unknown) => {
      this.deps.logger.warn(
        { err: error, sessionId: session.id },
        'interact session state could not be captured',
      );
      return undefined;
    });
    if (captured) {
      live.state = captured.state;
      await this.deps.sessions.saveState(session.id, captured.url, captured.state);
    }
    await this.deps.sessions
      .holdProfileLock(session)
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { err: error, sessionId: session.id },
          'profile saving lock of the interact session was lost',
        ),
      );
  }

  private async stop(message: InteractCallMessage): Promise<InteractStopResult> {
    const session = await this.deps.sessions.find(message.sessionId);
    if (!session) throw new AppError('NOT_FOUND', { message: INTERACT_MESSAGES.noSession });
    const live = await this.deps.live.take(session.id);
    let ended = session;
    try {
      if (session.status === 'active') {
        const captured = live
          ? await captureSessionState(live.page, live.state).catch(() => undefined)
          : undefined;
        ended = await this.deps.sessions.finish(session, 'stopped', captured);
      }
    } finally {
      if (live) await this.deps.live.close(live);
    }
    return {
      status: 'stopped',
      sessionDurationMs: Math.max(0, (ended.stoppedAt ?? new Date()).getTime() - ended.createdAt.getTime()),
      creditsBilled: await this.deps.sessions.creditsBilled(ended),
    };
  }
}

function toAppError(error: unknown): AppError {
  const name = (error as { name?: unknown })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AppError('SCRAPE_TIMEOUT');
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new AppError('SCRAPE_SITE_ERROR', { message: `The interact call failed: ${reason}` });
}
