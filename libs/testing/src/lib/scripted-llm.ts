import type { FakeLlmReply, FakeLlmRequest } from './fake-llm-server';

/** The page text the platform put in the user message (after its "PAGE CONTENT" marker). */
export function pageTextOf(request: FakeLlmRequest): string {
  const user = request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
  const marker = user.indexOf('--- PAGE CONTENT (markdown) ---');
  return marker >= 0 ? user.slice(marker + 31) : user;
}

function coerce(raw: string, schema: Record<string, unknown>): unknown {
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  if (type === 'number' || type === 'integer') {
    const number = Number(raw.replace(/[^\d.-]/g, ''));
    return Number.isFinite(number) ? number : null;
  }
  if (type === 'boolean') return /^(yes|true|in stock)$/i.test(raw.trim());
  if (type === 'array') return raw.split(/\s*,\s*/);
  return raw.trim();
}

/** Fills an object schema from "Property: value" lines of the page (what a good model would read). */
function fillFromLines(schema: Record<string, unknown>, text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, child] of Object.entries(properties)) {
    const label = name.replace(/([a-z])([A-Z])/g, '$1 $2');
    const match = new RegExp(`(?:^|\\n|\\*\\*)\\s*${label}\\s*:?\\**\\s*:?\\s*([^\\n]+)`, 'i').exec(text);
    if (match) out[name] = coerce(match[1].replace(/\*+/g, ''), child);
  }
  return out;
}

/**
 * A deterministic stand-in for a capable model, answering the platform's own prompts from the page
 * text it was sent: summaries, "Property: value" extraction, verbatim highlights, answers, PII lists,
 * cleanup and injection verdicts. Tests wrap it to inject failures.
 */
export function scriptedModel(request: FakeLlmRequest): FakeLlmReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const page = pageTextOf(request);
  const lines = page
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) => line && !line.startsWith('#') && !line.startsWith('URL:') && !line.startsWith('Title:'),
    );
  const format = request.responseFormat?.name;
  if (format === 'extraction') {
    const schema = request.responseFormat?.schema ?? {};
    if (schema['properties'] && (schema['properties'] as Record<string, unknown>)['answer']) {
      const task = /--- TASK ---\n([\s\S]*)$/.exec(request.text)?.[1] ?? '';
      const words = task.toLowerCase().match(/[a-z]{4,}/g) ?? [];
      const line =
        lines.find((candidate) => words.some((word) => candidate.toLowerCase().includes(word))) ??
        lines[0] ??
        '';
      return {
        json: {
          answer: `MODEL ANSWER: ${line}`,
          sources: [...request.text.matchAll(/^URL: (\S+)/gm)].map((match) => match[1]),
        },
      };
    }
    return { json: fillFromLines(schema, page) };
  }
  if (format === 'agent_plan') {
    const task = (/TASK: ([^\n]*)/.exec(request.text)?.[1] ?? '').toLowerCase();
    const words = task.match(/[a-z]{4,}/g) ?? [];
    const section = /CANDIDATE URLS[^\n]*\n([\s\S]*)$/.exec(request.text)?.[1] ?? '';
    const urls = [...section.matchAll(/^- (\S+)/gm)].map((match) => match[1]);
    const chosen = urls.filter((url) => words.some((word) => url.toLowerCase().includes(word.slice(0, 5))));
    return chosen.length
      ? {
          json: {
            action: 'read',
            urls: chosen.slice(0, 2),
            reasoning: `MODEL PLAN: read ${chosen.slice(0, 2).join(', ')}`,
          },
        }
      : { json: { action: 'finish', reasoning: 'MODEL PLAN: the pages read are enough' } };
  }
  if (format === 'highlights') {
    const query = /--- QUERY ---\n([\s\S]*)$/.exec(request.text)?.[1]?.toLowerCase() ?? '';
    const words = query.match(/[a-z]{4,}/g) ?? [];
    return {
      json: {
        highlights: lines
          .filter((line) => words.some((word) => line.toLowerCase().includes(word)))
          .slice(0, 2),
      },
    };
  }
  if (format === 'pii') {
    const text = request.messages[request.messages.length - 1]?.content ?? '';
    const entities = [
      ...[...text.matchAll(/[\w.+-]+@[\w-]+\.[\w.]+/g)].map((match) => ({ text: match[0], type: 'EMAIL' })),
      ...[...text.matchAll(/(?:Contact|Author):\s*([A-Z][a-z]+ [A-Z][a-z]+)/g)].map((match) => ({
        text: match[1],
        type: 'PERSON',
      })),
    ];
    return { json: { entities } };
  }
  if (format === 'injection_check') {
    const injected = /SYSTEM OVERRIDE/i.test(page);
    return { json: { injection: injected, evidence: injected ? 'SYSTEM OVERRIDE' : '' } };
  }
  if (system.startsWith('You summarize'))
    return `MODEL SUMMARY: ${lines.find((line) => line.split(' ').length > 4) ?? lines[0] ?? ''}`;
  if (system.startsWith('Answer the question')) {
    const question = /--- QUESTION ---\n([\s\S]*)$/.exec(request.text)?.[1]?.toLowerCase() ?? '';
    const words = question.match(/[a-z]{4,}/g) ?? [];
    return `MODEL ANSWER: ${lines.find((line) => words.some((word) => line.toLowerCase().includes(word))) ?? 'The page does not say.'}`;
  }
  if (system.startsWith('You remove residual boilerplate')) {
    const markdown = request.messages[request.messages.length - 1]?.content ?? '';
    return markdown
      .split('\n')
      .filter((line) => !/cookie|newsletter|share on/i.test(line))
      .join('\n');
  }
  if (system.startsWith('Two versions')) return 'MODEL CHANGE: the content changed.';
  return 'MODEL REPLY';
}
