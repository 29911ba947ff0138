import {
  type AgentRunRecord,
  agentWebhookEvents,
  orchestrator,
  type PendingEvent,
} from '@quarry/agent/domain';

import type { AgentRunnerDeps } from './agent-runner.deps';

const DETERMINISTIC_STRATEGY =
  'No language model is configured (LLM_BASE_URL), so this run follows the deterministic strategy: search this team’s index of scraped pages ' +
  '(and the web search provider, when one is configured) for the prompt’s terms, read the given URLs and the best index hits with sub-agents, follow the most relevant same-site links while the task ' +
  'is not answered, then extract the result from the pages’ structured data (schema field matching) or their best-matching passage.';
const MODEL_STRATEGY = (model: string) =>
  `The language model ${model} plans this run: it searches this team’s index (and the web, when a search provider is configured), reads pages with sub-agents, chooses which links to follow, and extracts the result.`;

/** queued → running for an agent run: records how it will work and sends `agent.started`. */
export class StartRunUseCase {
  constructor(private readonly deps: AgentRunnerDeps) {}

  async execute(run: AgentRunRecord): Promise<boolean> {
    const agent = orchestrator(run.id);
    const strategy =
      run.memory.strategy === 'model' && this.deps.llm.available
        ? MODEL_STRATEGY(this.deps.llm.model)
        : DETERMINISTIC_STRATEGY;
    const urls = run.request.urls?.length ?? 0;
    const events: PendingEvent[] = [
      { key: 'start:agent', agent, body: { type: 'agent.started' } },
      { key: 'start:strategy', agent, body: { type: 'reasoning.summary', text: strategy } },
      {
        key: 'start:progress',
        agent,
        body: {
          type: 'progress.reported',
          phase: 'planning',
          message: `${urls} URL(s) given${run.request.strictConstrainToURLs ? ', constrained to them' : ''}${run.maxCredits ? `; credit cap ${run.maxCredits}` : ''}.`,
        },
      },
    ];
    await this.deps.runs.update(run.id, {
      whenState: ['queued'],
      state: 'running',
      step: run.step + 1,
      events,
      webhooks: agentWebhookEvents(run.request.webhook, { event: 'started' }),
    });
    return true;
  }
}
