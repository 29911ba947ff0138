import { z } from 'zod';

import { AppError } from '@quarry/contracts';
import { LlmError, type LlmProvider } from '@quarry/llm';

import { OFFLINE_PROMPT_FORMS, parsePrompt } from './prompt-parser';
import { MAX_PROMPT_WAIT_MS, type PromptPlan, type PromptStep } from './prompt-plan';
import type { PageSnapshot } from './prompt-runner';

export const OFFLINE_NOTE =
  '(No language model is configured: the prompt was read by the built-in parser, which understands simple commands only. Set LLM_BASE_URL for free-form prompts.)';

const PLAN_SCHEMA = {
  type: 'object',
  properties: {
    steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['click', 'type', 'press', 'scroll', 'goto', 'wait', 'screenshot'] },
          selector: { type: 'string' },
          text: { type: 'string' },
          key: { type: 'string' },
          direction: { type: 'string', enum: ['up', 'down'] },
          url: { type: 'string' },
          milliseconds: { type: 'integer' },
        },
        required: ['type'],
      },
    },
    question: { type: ['string', 'null'] },
  },
  required: ['steps'],
} as const;

const planAnswer = z.object({
  steps: z.array(
    z.object({
      type: z.enum(['click', 'type', 'press', 'scroll', 'goto', 'wait', 'screenshot']),
      selector: z.string().optional(),
      text: z.string().optional(),
      key: z.string().optional(),
      direction: z.enum(['up', 'down']).optional(),
      url: z.string().optional(),
      milliseconds: z.number().optional(),
    }),
  ),
  question: z.string().nullish(),
});

export interface PlannedPrompt {
  plan: PromptPlan;
  /** Said after the steps: how the prompt was read when no model did it. */
  note?: string;
  /** A model answers extraction questions from the page text. */
  modelAnswers: boolean;
}

/**
 * Turns a prompt into steps: with a language model, from the prompt and the page's interactive
 * elements (structured output); without one, or when the model cannot be reached, with the
 * deterministic parser, labelled in the answer. A prompt neither can read is a 422.
 */
export async function planPrompt(
  prompt: string,
  options: {
    llm: LlmProvider;
    snapshot: () => Promise<PageSnapshot>;
    usage: { teamId: string; jobId: string };
    deadline: number;
  },
): Promise<PlannedPrompt> {
  let fallbackReason: string | undefined;
  if (options.llm.available) {
    try {
      return await planWithModel(prompt, options);
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      fallbackReason = `the language model could not be used (${error.message})`;
    }
  }
  const parsed = parsePrompt(prompt);
  if (!parsed.ok) {
    throw new AppError('UNPROCESSABLE_ENTITY', {
      message: `Could not understand the prompt${options.llm.available ? '' : ' without a language model'}: "${parsed.clause.slice(0, 200)}". Understood offline: ${OFFLINE_PROMPT_FORMS}.`,
    });
  }
  const note = fallbackReason
    ? `(The prompt was read by the built-in parser because ${fallbackReason}.)`
    : OFFLINE_NOTE;
  return { plan: parsed.plan, note, modelAnswers: false };
}

async function planWithModel(
  prompt: string,
  options: {
    llm: LlmProvider;
    snapshot: () => Promise<PageSnapshot>;
    usage: { teamId: string; jobId: string };
    deadline: number;
  },
): Promise<PlannedPrompt> {
  const snapshot = await options.snapshot();
  const completion = await options.llm.complete({
    messages: [
      {
        role: 'system',
        content:
          'You operate a web browser for the user. Translate the instruction into steps on the current page. ' +
          'Use the CSS selectors of the listed elements. Step types: click {selector}, type {selector, text} (replaces the field value), ' +
          'press {key} (Puppeteer key names such as Enter), scroll {direction}, goto {url}, wait {milliseconds}, screenshot. ' +
          'When the instruction asks for information, put the question in "question" (it is answered from the page after the steps). ' +
          'Never invent selectors that are not listed unless the instruction names one.',
      },
      {
        role: 'user',
        content: `Page: ${snapshot.url}\nTitle: ${snapshot.title}\nElements:\n${JSON.stringify(snapshot.elements).slice(0, options.llm.maxInputChars)}\n\nInstruction: ${prompt}`,
      },
    ],
    responseSchema: { name: 'interact_plan', schema: PLAN_SCHEMA as unknown as Record<string, unknown> },
    deadline: options.deadline,
    usage: { ...options.usage, purpose: 'interact.plan' },
  });
  const answer = planAnswer.safeParse(completion.json);
  if (!answer.success) throw new LlmError('invalid_response', 'the plan did not match its schema');
  const steps: PromptStep[] = [];
  for (const step of answer.data.steps) {
    const converted = toStep(step);
    if (!converted) throw new LlmError('invalid_response', `a "${step.type}" step lacks its fields`);
    steps.push(converted);
  }
  const question = answer.data.question?.trim();
  if (question) steps.push({ kind: 'extract', what: 'text', question });
  if (steps.length === 0) {
    throw new AppError('UNPROCESSABLE_ENTITY', {
      message: 'The prompt did not translate into any step on this page',
    });
  }
  return { plan: { steps }, modelAnswers: true };
}

function toStep(step: z.output<typeof planAnswer>['steps'][number]): PromptStep | undefined {
  switch (step.type) {
    case 'click':
      return step.selector ? { kind: 'click', target: step.selector } : undefined;
    case 'type':
      return step.text !== undefined ? { kind: 'type', text: step.text, target: step.selector } : undefined;
    case 'press':
      return step.key ? { kind: 'press', key: step.key } : undefined;
    case 'scroll':
      return { kind: 'scroll', direction: step.direction ?? 'down' };
    case 'goto':
      return step.url ? { kind: 'goto', url: step.url } : undefined;
    case 'wait':
      return {
        kind: 'wait',
        milliseconds: Math.max(1, Math.min(MAX_PROMPT_WAIT_MS, Math.round(step.milliseconds ?? 1_000))),
      };
    case 'screenshot':
      return { kind: 'screenshot' };
  }
}

/** Answers a question from the page text with the model (after the steps ran). */
export async function answerWithModel(
  llm: LlmProvider,
  question: string,
  pageText: string,
  options: { usage: { teamId: string; jobId: string }; deadline: number },
): Promise<string> {
  const completion = await llm.complete({
    messages: [
      {
        role: 'system',
        content:
          'Answer the question from the page text only. Be concise. Say so when the page does not contain the answer.',
      },
      {
        role: 'user',
        content: `Question: ${question}\n\nPage text:\n${pageText.slice(0, llm.maxInputChars)}`,
      },
    ],
    deadline: options.deadline,
    usage: { ...options.usage, purpose: 'interact.answer' },
  });
  return completion.text.trim();
}
