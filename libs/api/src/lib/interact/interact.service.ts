import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { CreditsService, PRICES } from '@quarry/billing';
import {
  AppError,
  INTERACT_LIMITS,
  INTERACT_MESSAGES,
  type InteractCallMessage,
  type InteractCallResult,
  type InteractRequest,
  type InteractResponse,
  type InteractStopResponse,
  type InteractStopResult,
  type JobEvent,
  type ScrapeRequest,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { JobDispatcher, type JobRecord, JobRepository, type NewJob } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import {
  type InteractSessionOptions,
  type InteractSessionRecord,
  InteractSessionRepository,
} from '@quarry/scrape/state';

/** Extra time the gateway waits past a call's deadline for the worker's own report. */
const DEADLINE_GRACE_MS = 3_000;
/** How long a stop waits for the worker holding the live page before ending the session itself. */
const STOP_WAIT_MS = 30_000;

/**
 * Interact (docs/interact.md#sessions) at the gateway: finds the team's scrape, opens or reuses
 * its session, and sends each call over the bus keyed by session id, so the worker holding the
 * session's live page runs it; the call's completion event wakes the request.
 */
@Injectable()
export class InteractService {
  constructor(
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(JobDispatcher) private readonly dispatcher: JobDispatcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(InteractSessionRepository) private readonly sessions: InteractSessionRepository,
  ) {}

  async interact(auth: AuthContext, scrapeId: string, request: InteractRequest): Promise<InteractResponse> {
    const scrape = await this.scrapeOf(auth, scrapeId);
    if (scrape.status !== 'completed' || !scrape.input)
      throw new AppError('CONFLICT', { message: INTERACT_MESSAGES.scrapeNotCompleted });
    await this.credits.ensureAvailable(auth.teamId, PRICES.interact);
    const { session } = await this.sessions.open({
      teamId: auth.teamId,
      scrapeJobId: scrapeId,
      apiKeyId: auth.apiKeyId,
      options: sessionOptionsOf(scrape.input as ScrapeRequest),
    });
    const timeoutMs = (request.timeout ?? INTERACT_LIMITS.timeoutSeconds.default) * 1_000;
    const code = request.code?.trim() ? request.code : undefined;
    const prompt = code === undefined ? request.prompt?.trim() : undefined;
    const event = await this.send(auth, session, 'execute', timeoutMs, {
      language: request.language,
      timeout: timeoutMs / 1_000,
      ...(code !== undefined ? { code } : { prompt }),
    });
    if (!event) throw new AppError('SCRAPE_TIMEOUT'); // the call was closed by send()
    const result = await this.dispatcher.resultOf<InteractCallResult>(event);
    return { success: true, ...result };
  }

  async stop(auth: AuthContext, scrapeId: string): Promise<InteractStopResponse> {
    await this.scrapeOf(auth, scrapeId);
    const session = await this.sessions.latestForScrape(auth.teamId, scrapeId);
    if (!session) throw new AppError('NOT_FOUND', { message: INTERACT_MESSAGES.noSession });
    if (session.status !== 'active') return this.stopped(session);
    const event = await this.send(auth, session, 'stop', STOP_WAIT_MS, { type: 'stop' });
    if (event?.status === 'completed')
      return { success: true, ...(await this.dispatcher.resultOf<InteractStopResult>(event)) };
    // No worker answered in time (none running, or busy): the session ends from its stored state.
    return this.stopped(await this.sessions.finish(session, 'stopped'));
  }

  /** The team's scrape: 404 "Job not found." for an unknown or another team's id; 400 under zero data retention. */
  private async scrapeOf(auth: AuthContext, scrapeId: string): Promise<JobRecord> {
    const scrape = await this.jobs.findForTeam(scrapeId, auth.teamId, 'scrape');
    if (!scrape) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
    if (scrape.zeroDataRetention || auth.zeroDataRetention)
      throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', { message: INTERACT_MESSAGES.zeroDataRetention });
    return scrape;
  }

  /** One call of the session: a job row (outcome and charge), a bus message keyed by session id, and the wait for its event. */
  private async send(
    auth: AuthContext,
    session: InteractSessionRecord,
    type: 'execute' | 'stop',
    timeoutMs: number,
    input: Record<string, unknown>,
  ): Promise<JobEvent | undefined> {
    const callId = randomUUID();
    const now = Date.now();
    const deadline = now + timeoutMs;
    const job: NewJob = {
      id: callId,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      kind: 'interact',
      input: { sessionId: session.id, scrapeId: session.scrapeJobId, type, ...input },
      zeroDataRetention: false,
      expiresAt: new Date(now + this.config.jobs.retentionHours * 3_600_000),
    };
    const message: InteractCallMessage = {
      type,
      callId,
      sessionId: session.id,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      ...(typeof input['code'] === 'string' ? { code: input['code'] } : {}),
      ...(typeof input['prompt'] === 'string' ? { prompt: input['prompt'] } : {}),
      deadline,
      enqueuedAt: now,
    };
    const event = await this.dispatcher.run(
      { job, topic: 'interactCalls', message, key: session.id, deadline },
      timeoutMs + DEADLINE_GRACE_MS,
    );
    if (!event) await this.dispatcher.timedOut(callId);
    return event;
  }

  private async stopped(session: InteractSessionRecord): Promise<InteractStopResponse> {
    return {
      success: true,
      status: 'stopped',
      sessionDurationMs: Math.max(
        0,
        (session.stoppedAt ?? new Date()).getTime() - session.createdAt.getTime(),
      ),
      creditsBilled: await this.sessions.creditsBilled(session),
    };
  }
}

/** The scrape's browser options the session opens its page with. */
function sessionOptionsOf(request: ScrapeRequest): InteractSessionOptions {
  return {
    url: request.url,
    ...(request.headers ? { headers: request.headers } : {}),
    mobile: request.mobile ?? false,
    ...(request.location ? { location: request.location } : {}),
    ...(request.profile
      ? { profile: { name: request.profile.name, saveChanges: request.profile.saveChanges ?? true } }
      : {}),
    proxy: request.proxy ?? 'auto',
    blockAds: request.blockAds ?? true,
    skipTlsVerification: request.skipTlsVerification ?? true,
  };
}
