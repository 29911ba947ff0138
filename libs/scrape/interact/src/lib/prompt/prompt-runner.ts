import type { CDPSession } from 'puppeteer-core';

import { type Action, AppError, type InteractCallResult } from '@quarry/contracts';
import { type ActionContext, runActions } from '@quarry/scrape/browser';

import type { SessionPageTarget } from '../sandbox/session-page.target';
import { PAGE_SNAPSHOT, READ_PAGE, RESOLVE_TARGET } from './page-targets';
import type { PromptPlan, PromptStep } from './prompt-plan';

/** Characters of page text an extraction step answers with at most. */
const ANSWER_MAX_CHARS = 20_000;

export interface PromptRunContext {
  actions: ActionContext;
  cdp: CDPSession;
  target: SessionPageTarget;
  /** Answers a question from page text (a language model); undefined: the text itself is the answer. */
  answer?: (question: string, pageText: string) => Promise<string>;
}

export interface PageSnapshot {
  url: string;
  title: string;
  elements: { selector: string; tag: string; type?: string; text?: string; label?: string }[];
}

/** Runs an in-page helper (page-targets.ts) with JSON arguments and returns its value. */
export async function evaluateHelper<T>(cdp: CDPSession, source: string, ...args: unknown[]): Promise<T> {
  const outcome = (await cdp.send('Runtime.evaluate', {
    expression: `(${source}).apply(null, ${JSON.stringify(args)})`,
    returnByValue: true,
    awaitPromise: true,
  })) as {
    result: { value?: unknown };
    exceptionDetails?: { text: string; exception?: { description?: string } };
  };
  if (outcome.exceptionDetails)
    throw new Error(
      outcome.exceptionDetails.exception?.description?.split('\n')[0] ?? outcome.exceptionDetails.text,
    );
  return outcome.result.value as T;
}

export function snapshotPage(cdp: CDPSession): Promise<PageSnapshot> {
  return evaluateHelper<PageSnapshot>(cdp, PAGE_SNAPSHOT);
}

/**
 * Runs a prompt's steps on the session page: element descriptions are matched on the page when
 * their step comes, clicks, typing, keys, scrolling, waits and screenshots go through the scrape's
 * action executor (docs/scraping.md#actions), navigations through the guarded `goto`. Returns what was
 * done, line by line, and the answer of extraction steps.
 */
export async function runPromptPlan(
  plan: PromptPlan,
  context: PromptRunContext,
  note?: string,
): Promise<InteractCallResult> {
  const lines: string[] = [];
  const answers: string[] = [];
  const screenshots: string[] = [];
  for (const step of plan.steps) {
    const line = await runStep(step, context, { answers, screenshots });
    if (line) lines.push(line);
  }
  if (note) lines.push(note);
  const page = context.actions.page;
  const result = {
    url: page.url(),
    title: await page.title().catch(() => ''),
    ...(answers.length ? { answer: answers.join('\n\n') } : {}),
    ...(screenshots.length ? { screenshots } : {}),
  };
  const output = lines.join('\n');
  return {
    output,
    stdout: output,
    stderr: '',
    result: JSON.stringify(result),
    exitCode: 0,
    killed: false,
    truncated: false,
  };
}

async function runStep(
  step: PromptStep,
  context: PromptRunContext,
  collected: { answers: string[]; screenshots: string[] },
): Promise<string | undefined> {
  const perform = async (actions: Action[]) => {
    const results = await runActions(actions, context.actions);
    collected.screenshots.push(...results.screenshots);
    return results;
  };
  switch (step.kind) {
    case 'goto': {
      const opened = (await context.target.goto(step.url, undefined).catch((error: unknown) => {
        throw new AppError('SCRAPE_ACTION_ERROR', {
          message: error instanceof Error ? error.message : String(error),
        });
      })) as { url: string; status: number | null };
      return `Opened ${opened.url}${opened.status ? ` (HTTP ${opened.status})` : ''}`;
    }
    case 'click': {
      const found = await resolve(context.cdp, step.target, 'click');
      await perform([{ type: 'click', selector: found.selector, all: false }]);
      return `Clicked "${found.text || step.target}" (${found.label})`;
    }
    case 'type': {
      const found = await resolve(context.cdp, step.target ?? '', 'field');
      await perform([
        { type: 'click', selector: found.selector, all: false },
        {
          type: 'executeJavascript',
          script: `document.querySelector(${JSON.stringify(found.selector)}).select?.()`,
        },
        { type: 'write', text: step.text },
      ]);
      return `Typed "${step.text}" into ${step.target ? `"${step.target}" ` : ''}(${found.label})`;
    }
    case 'press':
      await perform([{ type: 'press', key: step.key }]);
      return `Pressed ${step.key}`;
    case 'scroll':
      await perform([{ type: 'scroll', direction: step.direction }]);
      return `Scrolled ${step.direction}`;
    case 'wait':
      await perform([{ type: 'wait', milliseconds: step.milliseconds }]);
      return `Waited ${step.milliseconds} ms`;
    case 'screenshot': {
      const results = await perform([{ type: 'screenshot', fullPage: false }]);
      return `Screenshot: ${results.screenshots[0]}`;
    }
    case 'extract': {
      const text = (await evaluateHelper<string>(context.cdp, READ_PAGE, step.what)).slice(
        0,
        ANSWER_MAX_CHARS,
      );
      const answer =
        context.answer && step.what === 'text' ? await context.answer(step.question, text) : text;
      collected.answers.push(answer);
      return answer;
    }
  }
}

async function resolve(
  cdp: CDPSession,
  description: string,
  role: 'click' | 'field',
): Promise<{ selector: string; label: string; text: string }> {
  const found = await evaluateHelper<{ selector: string; label: string; text: string } | null>(
    cdp,
    RESOLVE_TARGET,
    description,
    role,
  );
  if (!found) {
    throw new AppError('UNPROCESSABLE_ENTITY', {
      message: `Could not find ${role === 'field' ? 'a field' : 'an element'} matching "${description}" on the page`,
    });
  }
  return found;
}
