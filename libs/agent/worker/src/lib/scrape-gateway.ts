import { type ScrapeDocument, type ScrapeJobMessage, scrapeRequestSchema } from '@quarry/contracts';
import {
  type DocumentRepository,
  isTerminal,
  type JobDispatch,
  JobDispatcher,
  type JobOutcomeStore,
  type JobRepository,
  type JobWaiter,
} from '@quarry/jobs';
import { isBusUnavailable, type MessageBus } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';

export type AgentScrape =
  | { status: 'completed'; document: ScrapeDocument }
  | { status: 'failed'; error: string }
  /** The run stopped waiting (it finished or is being cancelled). */
  | { status: 'abandoned' };

export interface AgentScrapeInput {
  jobId: string;
  teamId: string;
  url: string;
  parentJobId: string;
  timeoutMs: number;
  /** Scrape options of the caller (extract jobs); formats are always markdown and rawHtml. */
  options?: Record<string, unknown>;
  origin?: string;
  /** Checked while waiting: true stops the wait. */
  stop: () => Promise<boolean>;
  /** Called while waiting (lease renewal). */
  heartbeat?: () => Promise<void>;
}

const POLL_MS = 1_000;
const GRACE_MS = 5_000;

/**
 * The agent reads pages through the platform's scrape path: a scrape job row and a `scrape.jobs`
 * message (billed to the run, see ScrapeJobMessage.parentJobId), executed by the scrape workers
 * with every enricher, engine and guard they have. The job id is derived from the task, so a
 * re-executed task finds its scrape instead of fetching the page again.
 */
export class ScrapeGateway {
  private readonly dispatcher: JobDispatcher;

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      documents: DocumentRepository;
      outcomes: JobOutcomeStore;
      waiter: JobWaiter;
      bus: MessageBus;
      metrics: PlatformMetrics;
      retentionHours: number;
    },
  ) {
    this.dispatcher = new JobDispatcher(deps);
  }

  async scrape(input: AgentScrapeInput): Promise<AgentScrape> {
    const { jobs } = this.deps;
    const request = scrapeRequestSchema.parse({
      onlyMainContent: true,
      ...input.options,
      url: input.url,
      formats: ['markdown', 'rawHtml'],
      timeout: input.timeoutMs,
      origin: input.origin ?? 'agent',
    });
    const dispatch = this.dispatchOf(input, request);
    try {
      let job = await jobs.find(input.jobId);
      if (!job) {
        try {
          await jobs.create(dispatch.job);
        } catch (error) {
          // Another executor of the same task created it first: wait for that one.
          job = await jobs.find(input.jobId);
          if (!job) throw error;
        }
        if (!job) await this.dispatcher.publish(dispatch);
      } else if (
        !isTerminal(job.status) &&
        Date.now() - job.createdAt.getTime() > input.timeoutMs + GRACE_MS
      ) {
        // Its message may have been lost with a crashed process: ask the workers again.
        await this.dispatcher.publish(dispatch);
      }
    } catch (error) {
      // The broker did not take the message: the dispatcher closed the job, the page is reported failed.
      if (isBusUnavailable(error)) return { status: 'failed', error: 'Service Unavailable' };
      throw error;
    }
    const deadline = Date.now() + input.timeoutMs + GRACE_MS;
    for (;;) {
      const current = await jobs.find(input.jobId);
      if (current && isTerminal(current.status))
        return this.resultOf(input.jobId, current.status, current.error?.message);
      if (await input.stop()) return { status: 'abandoned' };
      if (Date.now() > deadline) {
        await this.dispatcher.timedOut(input.jobId);
        return { status: 'failed', error: 'Request Timeout' };
      }
      await input.heartbeat?.();
      const event = await this.dispatcher.wait(input.jobId, POLL_MS * 2);
      if (event) return this.resultOf(input.jobId, event.status, event.error?.message);
    }
  }

  /** The scrape job of a task and its `scrape.jobs` message (deadline from now: a republish gets a fresh one). */
  private dispatchOf(input: AgentScrapeInput, request: ScrapeJobMessage['request']): JobDispatch {
    const now = Date.now();
    const message: ScrapeJobMessage = {
      jobId: input.jobId,
      teamId: input.teamId,
      request,
      deadline: now + input.timeoutMs,
      enqueuedAt: now,
      parentJobId: input.parentJobId,
    };
    return {
      job: {
        id: input.jobId,
        teamId: input.teamId,
        kind: 'scrape',
        input: request,
        zeroDataRetention: false,
        expiresAt: new Date(now + this.deps.retentionHours * 3_600_000),
      },
      topic: 'scrapeJobs',
      message,
    };
  }

  private async resultOf(jobId: string, status: string, error?: string): Promise<AgentScrape> {
    if (status !== 'completed') return { status: 'failed', error: error ?? status };
    const stored = await this.deps.documents.findByJob(jobId);
    if (!stored) return { status: 'failed', error: 'the scrape finished without a stored document' };
    return { status: 'completed', document: stored.document };
  }
}
