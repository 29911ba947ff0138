import { MAX_PROMPT_WAIT_MS, type PromptPlan, type PromptStep } from './prompt-plan';

/** What the offline parser understands, for the 422 message. */
export const OFFLINE_PROMPT_FORMS =
  'click <text>, type <text> into <field>, fill <field> with <text>, search for <text>, press <key>, scroll up/down, go to <url>, wait <n> seconds, take a screenshot, and questions or "extract …" (answered with page text)';

export type ParseOutcome = { ok: true; plan: PromptPlan } | { ok: false; clause: string };

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  spacebar: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  'arrow up': 'ArrowUp',
  'arrow down': 'ArrowDown',
  'arrow left': 'ArrowLeft',
  'arrow right': 'ArrowRight',
  'up arrow': 'ArrowUp',
  'down arrow': 'ArrowDown',
  home: 'Home',
  end: 'End',
  'page up': 'PageUp',
  'page down': 'PageDown',
  pageup: 'PageUp',
  pagedown: 'PageDown',
};

const QUESTION_START =
  /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|tell me|show me|give me|get|read|extract|find|list|return|print)\b/i;

/**
 * The deterministic reading of simple imperative prompts, used when no language model is
 * configured (or it cannot be reached). The prompt is split into clauses ("then", ";", ", and",
 * sentence ends; never inside quotes) and each clause must match one known form; a clause that
 * matches none makes the whole prompt not understood.
 */
export function parsePrompt(prompt: string): ParseOutcome {
  const steps: PromptStep[] = [];
  const clauses = splitClauses(prompt);
  if (clauses.length === 0) return { ok: false, clause: prompt.trim() };
  for (const clause of clauses) {
    const parsed = parseClause(clause);
    if (!parsed) return { ok: false, clause };
    steps.push(...parsed);
  }
  return { ok: true, plan: { steps } };
}

/** Splits on clause separators outside quotes. */
export function splitClauses(prompt: string): string[] {
  const clauses: string[] = [];
  let current = '';
  let quote: string | null = null;
  const text = prompt.replace(/\r/g, '');
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote) {
      current += char;
      if (char === quote) quote = null;
      continue;
    }
    if ((char === '"' || char === '“' || char === '«' || char === '`') && !/\w/.test(text[index - 1] ?? '')) {
      quote = char === '“' ? '”' : char === '«' ? '»' : char;
      current += char;
      continue;
    }
    if (char === "'" && !/\w/.test(text[index - 1] ?? '') && text.indexOf("'", index + 1) > index) {
      quote = "'";
      current += char;
      continue;
    }
    if (
      char === ';' ||
      char === '\n' ||
      ((char === '.' || char === '!') && /\s/.test(text[index + 1] ?? ' '))
    ) {
      clauses.push(current);
      current = '';
      continue;
    }
    if (char === '?' && /\s/.test(text[index + 1] ?? ' ')) {
      clauses.push(current + '?');
      current = '';
      continue;
    }
    current += char;
    const joined = /(?:,?\s+(?:and\s+)?then|,?\s+and|,)\s+$/i.exec(current);
    if (joined && /\S/.test(text[index + 1] ?? '')) {
      const head = current.slice(0, joined.index);
      // "and" and commas only separate clauses when what follows starts a new command.
      if (/\bthen\s+$/i.test(joined[0]) || startsCommand(text.slice(index + 1))) {
        clauses.push(head);
        current = '';
      }
    }
  }
  clauses.push(current);
  return clauses
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0 && !/^(?:and|then|please)$/i.test(clause));
}

function startsCommand(rest: string): boolean {
  return /^(?:click|tap|press|hit|type|enter|write|fill|search|scroll|go|navigate|open|visit|wait|take|what|which|who|how|is|are|extract|get|read|tell|show|find|return|print|select|choose)\b/i.test(
    rest,
  );
}

function unquote(text: string): string {
  const trimmed = text.trim();
  const match = /^(["'`“«])([\s\S]*)(["'`”»])$/.exec(trimmed);
  return match ? match[2] : trimmed;
}

function cleanTarget(text: string): string {
  return unquote(
    text
      .trim()
      .replace(/^(?:on|the|a|an)\s+/i, '')
      .replace(/^the\s+/i, ''),
  );
}

function parseClause(raw: string): PromptStep[] | undefined {
  const clause = raw
    .trim()
    .replace(/^(?:please|now|first|next|finally|also|and)\s+/i, '')
    .replace(/[.!,]+$/, '')
    .trim();
  if (!clause) return [];
  let match: RegExpExecArray | null;

  if (
    (match = /^(?:go|navigate|browse)\s+(?:back\s+)?to\s+(\S+)$/i.exec(clause)) ||
    (match = /^(?:open|visit|load)\s+(\S+)$/i.exec(clause))
  ) {
    const url = toUrl(unquote(match[1]));
    return url ? [{ kind: 'goto', url }] : undefined;
  }

  if ((match = /^(?:press|hit|push)\s+(?:the\s+)?(.+?)(?:\s+key)?$/i.exec(clause))) {
    const key = KEYS[unquote(match[1]).toLowerCase().replace(/\s+/g, ' ')];
    if (key) return [{ kind: 'press', key }];
  }

  if ((match = /^(?:click|tap|press|hit|push|select|choose|toggle|check)\s+(?:on\s+)?(.+)$/i.exec(clause))) {
    const target = cleanTarget(match[1].replace(/\s+(?:button|link|tab|item|option|checkbox|icon)$/i, ''));
    return target ? [{ kind: 'click', target }] : undefined;
  }

  if ((match = /^search\s+(?:for\s+)?(.+?)(?:\s+(?:in|on|using)\s+(?:the\s+)?(.+))?$/i.exec(clause))) {
    return [
      { kind: 'type', text: unquote(match[1]), target: match[2] ? cleanTarget(match[2]) : 'search' },
      { kind: 'press', key: 'Enter' },
    ];
  }

  if ((match = /^fill\s+(?:in\s+|out\s+)?(.+?)\s+with\s+(.+)$/i.exec(clause))) {
    return [{ kind: 'type', text: unquote(match[2]), target: cleanTarget(match[1]) }];
  }

  if (
    (match = /^(?:type|enter|write|input|put|fill\s+in)\s+(.+?)\s+(?:in|into|inside|on)\s+(.+)$/i.exec(
      clause,
    ))
  ) {
    return [{ kind: 'type', text: unquote(match[1]), target: cleanTarget(match[2]) }];
  }

  if ((match = /^(?:type|write)\s+(.+)$/i.exec(clause))) {
    return [{ kind: 'type', text: unquote(match[1]) }];
  }

  if (
    (match =
      /^scroll(?:\s+(?:the\s+)?(?:page|window))?(?:\s+(up|down|to the top|to the bottom|back up))?(?:\s+.*)?$/i.exec(
        clause,
      ))
  ) {
    const where = (match[1] ?? 'down').toLowerCase();
    return [
      {
        kind: 'scroll',
        direction: where === 'up' || where === 'to the top' || where === 'back up' ? 'up' : 'down',
      },
    ];
  }

  if ((match = /^wait(?:\s+for)?\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?$/i.exec(clause))) {
    const value = Number(match[1]);
    const unit = (match[2] ?? 's').toLowerCase();
    const milliseconds = Math.round(unit.startsWith('m') ? value : value * 1_000);
    return [{ kind: 'wait', milliseconds: Math.max(1, Math.min(MAX_PROMPT_WAIT_MS, milliseconds)) }];
  }

  if (
    /^(?:(?:take|capture|grab|make|get)\s+(?:a\s+|another\s+)?)?screenshot(?:\s+of\s+(?:the\s+)?page)?$/i.test(
      clause,
    )
  ) {
    return [{ kind: 'screenshot' }];
  }

  if (/\?$/.test(clause) || QUESTION_START.test(clause)) {
    return [{ kind: 'extract', what: extractKind(clause), question: clause }];
  }
  return undefined;
}

function extractKind(question: string): 'heading' | 'title' | 'links' | 'text' {
  if (/\b(?:heading|headline|h1)\b/i.test(question)) return 'heading';
  if (/\btitle\b/i.test(question)) return 'title';
  if (/\blinks?\b/i.test(question)) return 'links';
  return 'text';
}

function toUrl(text: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : /^[\w-]+(\.[\w-]+)+(?::\d+)?(\/|$)/.test(text)
      ? `https://${text}`
      : undefined;
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
