import type { DashboardSpec } from './builder';
import { jobPanels, kinds, links, processPanels, R } from './dashboard-panels';

/** Quarry / Agent (see dashboards.ts for the labels). */
export const AGENT_DASHBOARD: DashboardSpec = {
  uid: 'quarry-agent',
  title: 'Quarry / Agent',
  description: 'Agent runs: lifecycle, outcomes, durations, credits and the agent work queue.',
  tags: ['quarry'],
  links,
  rows: [
    { title: 'Agent runs', panels: jobPanels(kinds('agent'), 'Agent runs') },
    {
      title: 'Agent work queue',
      panels: [
        {
          title: 'Agent runs started per second',
          description: 'Agent jobs accepted by the gateways.',
          unit: 'ops',
          queries: [
            {
              expr: `sum(rate(quarry_jobs_queued_total{kind="${kinds('agent')}"}[${R}]))`,
              legend: 'started',
            },
          ],
        },
        {
          title: 'Agent work backlog',
          description: 'Agent steps waiting in Kafka (consumer lag of the agent topics).',
          queries: [
            {
              expr: 'max by (topic, group) (quarry_bus_consumer_lag{topic=~".*agent.*"})',
              legend: '{{group}} on {{topic}}',
            },
          ],
        },
        {
          title: 'Agent step attempts by outcome',
          description: 'Agent work handler attempts per second: ok, error (retried), invalid, dead_letter.',
          unit: 'ops',
          stack: true,
          queries: [
            {
              expr: `sum by (outcome) (rate(quarry_bus_messages_consumed_total{service="agent-orchestrator",topic="agentWork"}[${R}]))`,
              legend: '{{outcome}}',
            },
          ],
        },
        {
          title: 'Agent step duration p99',
          description: 'Time per agent step (plan, scrape through the bus, extract), per attempt.',
          unit: 's',
          queries: [
            {
              expr: `histogram_quantile(0.99, sum by (le) (rate(quarry_bus_handler_duration_seconds_bucket{service="agent-orchestrator",topic="agentWork"}[${R}])))`,
              legend: 'p99',
            },
          ],
        },
      ],
    },
    { title: 'Processes', panels: processPanels('agent-orchestrator') },
  ],
};
