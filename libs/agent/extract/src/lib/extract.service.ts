import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';

import {
  AGENT_MESSAGES,
  type AgentRunRepository,
  extractStatusBody,
  initialMemory,
  orchestrator,
} from '@quarry/agent/domain';
import type { CreditsService } from '@quarry/billing';
import {
  type AgentWorkMessage,
  AppError,
  EXTRACT_LIMITS,
  EXTRACT_MESSAGES,
  type ExtractRequest,
  type ExtractStartResponse,
  type ExtractStatusResponse,
  isAcceptableHttpUrl,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { checkJsonSchema } from '@quarry/llm';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import { AddressPolicy, type WebhookTargetPolicy } from '@quarry/platform/net';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import type { WebhookOutboxRepository } from '@quarry/webhooks';

export interface ExtractServiceDeps {
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

/**
 * The extract API (docs/extract.md, deprecated): an extract job is a run of the agent orchestrators
 * (kind `extract`) that reads the given pages and extracts them to the schema.
 */
export class ExtractService {
  private readonly addresses: AddressPolicy;

  constructor(private readonly deps: ExtractServiceDeps) {
    this.addresses = new AddressPolicy(deps.config.net.allowPrivateNetworks, deps.config.net.allowlist);
  }

  async start(auth: AuthContext, request: ExtractRequest): Promise<ExtractStartResponse> {
    this.assertAllowed(auth);
    if (request.webhook) await this.deps.webhookTargets.assertAllowed(request.webhook.url);
    if (request.schema) {
      const check = checkJsonSchema(request.schema);
      if (!check.valid) throw new AppError('UNPROCESSABLE_ENTITY', { message: check.message });
    }
    const { valid, invalid } = this.checkUrls(request);
    await this.deps.credits.ensureAvailable(auth.teamId, EXTRACT_LIMITS.minimumCredits);
    const id = randomUUID();
    const stored: ExtractRequest = { ...request, urls: request.urls ? valid : undefined };
    await this.deps.runs.create({
      kind: 'extract',
      id,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      request: stored,
      webhook: request.webhook,
      // The pages are resolved when an orchestrator starts the job (site globs need a map).
      memory: initialMemory([], this.deps.config.llm.baseUrl ? 'model' : 'deterministic'),
      expiresAt: new Date(Date.now() + this.deps.config.jobs.retentionHours * 3_600_000),
      events: [{ key: 'start:run', agent: orchestrator(id), body: { type: 'run.started' } }],
    });
    const message: AgentWorkMessage = { type: 'advance', runId: id, teamId: auth.teamId };
    // A job that could not be announced stays queued: the orchestrators' sweeper picks it up.
    await this.deps.bus.publish('agentWork', message, { key: id }).catch((error: unknown) => {
      this.deps.logger.warn(
        { err: error, runId: id },
        'extract job not announced; the sweeper will start it',
      );
    });
    this.deps.metrics.jobsQueued.inc({ kind: 'extract' });
    return { success: true, id, urlTrace: [], ...(invalid.length ? { invalidURLs: invalid } : {}) };
  }

  async status(auth: AuthContext, jobId: string): Promise<ExtractStatusResponse> {
    this.assertAllowed(auth);
    const run = await this.deps.runs.findForTeam(jobId, auth.teamId, 'extract');
    if (!run || !run.extract || run.expiresAt.getTime() <= Date.now())
      throw new AppError('JOB_NOT_FOUND', { message: EXTRACT_MESSAGES.notFound });
    const body = extractStatusBody(
      { ...run, showSources: run.extract.showSources },
      await this.deps.runs.tokensUsed(run.id),
    );
    const webhookDelivery = run.extract.webhook
      ? await this.deps.webhookDeliveries.deliverySummary(run.id)
      : undefined;
    return webhookDelivery ? { ...body, webhookDelivery } : body;
  }

  /** Valid URLs and the invalid ones (dropped with ignoreInvalidURLs, else a 400 naming the first). */
  private checkUrls(request: ExtractRequest): { valid: string[]; invalid: string[] } {
    const valid: string[] = [];
    const invalid: string[] = [];
    for (const raw of request.urls ?? []) (this.acceptable(raw) ? valid : invalid).push(raw);
    if (invalid.length > 0 && !request.ignoreInvalidURLs) {
      throw new AppError('INVALID_URL', {
        details: [
          {
            code: 'custom',
            path: ['urls', (request.urls ?? []).indexOf(invalid[0])],
            message: 'Invalid URL',
          },
        ],
      });
    }
    if (request.urls?.length && valid.length === 0)
      throw new AppError('BAD_REQUEST', {
        message: EXTRACT_MESSAGES.noValidUrls,
        details: { invalidURLs: invalid },
      });
    return { valid, invalid };
  }

  private acceptable(raw: string): boolean {
    const value = raw.trim();
    if (!isAcceptableHttpUrl(value)) return false;
    const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    // Literal addresses the outbound guard would refuse are dropped up front (names are checked when fetched).
    return !isIP(host) || this.addresses.allows(host);
  }

  /** Teams with enforced zero data retention cannot run extract jobs (docs/agent.md#api: "not supported on extract"). */
  private assertAllowed(auth: AuthContext): void {
    if (auth.zeroDataRetention)
      throw new AppError('BAD_REQUEST', { message: AGENT_MESSAGES.zeroDataRetention });
  }
}
