import type { AgentStatus } from './agent-support';

// The tasks of the offline agent quality e2e (agent-quality.e2e-spec.ts), with their answers and scoring.
export interface Task {
  id: string;
  body: (base: string) => Record<string, unknown>;
  /** Expected fields of `data` (schema tasks), compared loosely (case, number strings). */
  fields?: Record<string, string | number>;
  /** A fact the `answer` must contain (tasks without a schema). */
  fact?: string;
}

export const TASKS: Task[] = [
  {
    id: 'plan price one link away',
    body: (base) => ({
      prompt: 'What does the Acme Team plan cost per month?',
      urls: [`${base}/acme/`],
      schema: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
      },
    }),
    fields: { name: 'Acme Team', price: 29, currency: 'USD' },
  },
  {
    id: 'company facts on the about page (warehouses)',
    body: (base) => ({
      prompt: 'How many warehouses does Halden Logistics operate?',
      urls: [`${base}/halden/`],
    }),
    fact: '40 warehouses',
  },
  {
    id: 'company facts on the about page (founding year)',
    body: (base) => ({ prompt: 'In which year was Halden Logistics founded?', urls: [`${base}/halden/`] }),
    fact: '1998',
  },
  {
    id: 'return window found through the index (no URLs)',
    body: () => ({ prompt: 'How many days do I have to return shoes to Summit Gear?' }),
    fact: '30 days',
  },
  {
    id: 'right product among several given pages',
    body: (base) => ({
      prompt: 'What is the price of the Road Glide shoe?',
      urls: [`${base}/summit/trail-runner-3`, `${base}/summit/road-glide`],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
    }),
    fields: { name: 'Road Glide', price: 99 },
  },
  {
    id: 'documentation detail one link away',
    body: (base) => ({
      prompt: 'How many requests per minute does the Acme API rate limit allow?',
      urls: [`${base}/docs/`],
    }),
    fact: '100 requests per minute',
  },
  {
    id: 'authentication header in the docs',
    body: (base) => ({
      prompt: 'Which HTTP header carries the Acme API key for authentication?',
      urls: [`${base}/docs/`],
    }),
    fact: 'Authorization',
  },
  {
    id: 'opening hours from a table',
    body: (base) => ({
      prompt: 'What are the opening hours of Trattoria Nonna on Sunday?',
      urls: [`${base}/trattoria/`],
    }),
    fact: '12:00',
  },
  {
    id: 'byline and date of an article',
    body: (base) => ({
      prompt: 'Who wrote the article about the new airline routes, and when was it published?',
      urls: [`${base}/news/airline-routes`],
      schema: {
        type: 'object',
        properties: { author: { type: 'string' }, datePublished: { type: 'string' } },
      },
    }),
    fields: { author: 'Jana Novak', datePublished: '2024-03-14' },
  },
  {
    id: 'product two links away (effort high)',
    body: (base) => ({
      prompt: 'What does the Ridge 2P tent cost at Fjell Outdoor?',
      urls: [`${base}/outdoor/`],
      effort: 'high',
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
    }),
    fields: { name: 'Ridge 2P tent', price: 349 },
  },
  {
    id: 'date on the given page',
    body: (base) => ({ prompt: 'On which day does Lisbon Design Week 2024 start?', urls: [`${base}/ldw/`] }),
    fact: '3 June',
  },
  {
    id: 'person on the team page',
    body: (base) => ({ prompt: 'Who is the chief executive of Lumen Labs?', urls: [`${base}/lumen/`] }),
    fact: 'Rui Almeida',
  },
];

export const HELD_OUT_TASKS: Task[] = [
  {
    id: 'ticket price in a table one link away',
    body: (base) => ({
      prompt: 'How much is an adult ticket at the Harbour Museum?',
      urls: [`${base}/museum/`],
    }),
    fact: '18 EUR',
  },
  {
    id: 'current version in a changelog',
    body: (base) => ({ prompt: 'What is the current release of Relay?', urls: [`${base}/relay/`] }),
    fact: '4.2.0',
  },
  {
    id: 'hotel telephone from JSON-LD',
    body: (base) => ({
      prompt: 'What is the phone number of the Casa Alfama hotel?',
      urls: [`${base}/hotel/alfama`],
      schema: { type: 'object', properties: { name: { type: 'string' }, telephone: { type: 'string' } } },
    }),
    fields: { name: 'Casa Alfama', telephone: '+351 21 555 0101' },
  },
  {
    id: 'baking time in a recipe',
    body: (base) => ({
      prompt: 'How long does the sourdough focaccia bake?',
      urls: [`${base}/recipes/focaccia`],
    }),
    fact: '25 minutes',
  },
  {
    id: 'membership fee one link away',
    body: (base) => ({
      prompt: 'How much does Riverside Library membership cost for non-residents?',
      urls: [`${base}/library/`],
    }),
    fact: '30 EUR',
  },
  {
    id: 'second of two microdata products',
    body: (base) => ({
      prompt: 'What does the Glass Kettle cost?',
      urls: [`${base}/kettles/steel`, `${base}/kettles/glass`],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
    }),
    fields: { name: 'Glass Kettle 1.5 L', price: 59 },
  },
  {
    id: 'headquarters on the company page',
    body: (base) => ({
      prompt: 'Where is the headquarters of Brightwave Energy?',
      urls: [`${base}/brightwave/`],
    }),
    fact: 'Aarhus',
  },
  {
    id: 'gardening advice found through the index (no URLs)',
    body: () => ({ prompt: 'When should I prune my roses?' }),
    fact: 'late winter',
  },
];

function loose(value: unknown): string {
  return String(value ?? '')
    .trim()
    .toLowerCase();
}

export function succeeded(task: Task, status: AgentStatus): { ok: boolean; got: string } {
  const data = (status.data ?? {}) as Record<string, unknown>;
  if (status.status !== 'completed') return { ok: false, got: `${status.status}: ${status.error ?? ''}` };
  if (task.fields) {
    const ok = Object.entries(task.fields).every(([key, expected]) =>
      typeof expected === 'number'
        ? Number(data[key]) === expected
        : loose(data[key]).includes(loose(expected)),
    );
    return { ok, got: JSON.stringify(data) };
  }
  const answer = String(data['answer'] ?? '');
  return { ok: loose(answer).includes(loose(task.fact)), got: answer.slice(0, 160) };
}
