import type { CDPSession, HTTPRequest } from 'puppeteer-core';

import type { InteractCallResult } from '@quarry/contracts';
import type { PageSlot } from '@quarry/scrape/browser';

import { dispatchShimCall, type ShimTarget } from './page-shim';
import { CALL_BINDING, OUTPUT_BINDING, SANDBOX_BOOTSTRAP } from './sandbox-bootstrap';

/** Characters kept of stdout and of stderr each, and of the JSON result. */
export const OUTPUT_LIMITS = { stream: 64 * 1024, result: 1024 * 1024 } as const;

export interface SandboxRun {
  code: string;
  /** Epoch ms at which the code is killed. */
  deadline: number;
  /** The session page's operations the code may call. */
  target: ShimTarget & { evaluating?: boolean };
  /** DevTools session of the session page: a kill terminates a script the code started there. */
  targetCdp?: CDPSession;
}

class Stream {
  private text = '';
  truncated = false;

  constructor(private readonly limit: number) {}

  write(line: string): void {
    if (this.truncated) return;
    const next = `${line}\n`;
    if (this.text.length + next.length > this.limit) {
      this.text += next.slice(0, Math.max(0, this.limit - this.text.length));
      this.truncated = true;
    } else this.text += next;
  }

  get value(): string {
    return this.text;
  }
}

/**
 * Runs Playwright-style user code inside Chromium, never in this process: the code is evaluated in
 * a page of its own (`sandbox`, a separate incognito context behind its own guard proxy, all of its
 * own requests refused) whose only capability is the `page` object of sandbox-bootstrap.ts, each
 * method a binding into `dispatchShimCall` (the whitelist). Console output streams back as it is
 * written; at the deadline the code is killed (its context closed, a script it runs in the session
 * page terminated).
 */
export async function runInSandbox(sandbox: PageSlot, run: SandboxRun): Promise<InteractCallResult> {
  const stdout = new Stream(OUTPUT_LIMITS.stream);
  const stderr = new Stream(OUTPUT_LIMITS.stream);
  const { page } = sandbox;
  let finished = false;
  const cdp = await page.createCDPSession();
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    // The sandbox itself loads nothing: its code reaches the web only through the session page.
    if (!request.isInterceptResolutionHandled()) void request.abort('blockedbyclient').catch(() => undefined);
  });
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  await page.exposeFunction(CALL_BINDING, async (method: unknown, args: unknown) => {
    if (finished) throw new Error('the interact call has ended');
    return dispatchShimCall(run.target, method, args);
  });
  await page.exposeFunction(OUTPUT_BINDING, (stream: unknown, text: unknown) => {
    if (finished) return;
    (stream === 'stderr' ? stderr : stdout).write(String(text).slice(0, OUTPUT_LIMITS.stream));
  });

  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<'killed'>((resolve) => {
    timer = setTimeout(() => resolve('killed'), Math.max(0, run.deadline - Date.now()));
  });
  const evaluation = page
    .evaluate(`(${SANDBOX_BOOTSTRAP})(${JSON.stringify(run.code)})`)
    .then((value) => value as { result?: string; error?: string })
    .catch((error: unknown): { result?: string; error?: string } => ({
      error: error instanceof Error ? error.message : String(error),
    }));
  const outcome = await Promise.race([evaluation, killed]);
  clearTimeout(timer);
  finished = true;

  if (outcome === 'killed') {
    await cdp.send('Runtime.terminateExecution').catch(() => undefined);
    if (run.target.evaluating && run.targetCdp)
      await run.targetCdp.send('Runtime.terminateExecution').catch(() => undefined);
    stderr.write(`Killed: the code did not finish within the call's timeout`);
    return answer(stdout, stderr, { exitCode: 1, killed: true });
  }
  if (outcome.error !== undefined) {
    stderr.write(outcome.error);
    return answer(stdout, stderr, { exitCode: 1 });
  }
  let result = outcome.result;
  let truncated = false;
  if (result !== undefined && result.length > OUTPUT_LIMITS.result) {
    result = result.slice(0, OUTPUT_LIMITS.result);
    truncated = true;
  }
  return answer(stdout, stderr, { exitCode: 0, result, truncated });
}

function answer(
  stdout: Stream,
  stderr: Stream,
  extra: { exitCode: number; killed?: boolean; result?: string; truncated?: boolean },
): InteractCallResult {
  const truncated = stdout.truncated || stderr.truncated || extra.truncated === true;
  return {
    output: stdout.value + stderr.value,
    stdout: stdout.value,
    stderr: stderr.value,
    ...(extra.result !== undefined ? { result: extra.result } : {}),
    exitCode: extra.exitCode,
    killed: extra.killed ?? false,
    truncated,
  };
}
