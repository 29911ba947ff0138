/**
 * What a prompt asks for, step by step. `target` is a description ("Sign in", "the search box") or
 * a CSS selector; it is matched against the page when the step runs, so earlier steps can change
 * what is there.
 */
export type PromptStep =
  | { kind: 'click'; target: string }
  | { kind: 'type'; text: string; target?: string }
  | { kind: 'press'; key: string }
  | { kind: 'scroll'; direction: 'up' | 'down' }
  | { kind: 'goto'; url: string }
  | { kind: 'wait'; milliseconds: number }
  | { kind: 'screenshot' }
  | { kind: 'extract'; what: 'heading' | 'title' | 'links' | 'text'; question: string };

export interface PromptPlan {
  steps: PromptStep[];
}

/** Longest wait a prompt step may ask for. */
export const MAX_PROMPT_WAIT_MS = 30_000;
