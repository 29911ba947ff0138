import { type LlmProvider, OfflineProvider, OpenAiCompatibleProvider } from '@quarry/llm';
import { AddressPolicy } from '@quarry/platform/net';
import { BrowserPool, closeSlot, ProxyPools } from '@quarry/scrape/browser';
import { EMPTY_PROFILE, type InteractSessionRecord } from '@quarry/scrape/state';
import {
  type FakeLlmRequest,
  type FixtureServer,
  html,
  startFakeLlmServer,
  startFixtureServer,
  startInteractSite,
} from '@quarry/testing';

import { answerWithModel, planPrompt } from '../prompt/prompt-planner';
import { runPromptPlan, snapshotPage } from '../prompt/prompt-runner';
import {
  openSandbox,
  openSessionPage,
  type SessionBrowserSettings,
  type SessionPage,
} from '../session/session-page';
import { runInSandbox } from './code-sandbox';
import { SessionPageTarget } from './session-page.target';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
jest.setTimeout(90_000);

describe('interact code sandbox on real Chromium', () => {
  let site: FixtureServer;
  let privateSite: FixtureServer;
  let pool: BrowserPool;
  let settings: SessionBrowserSettings;
  let session: SessionPage;

  const sessionRecord = (url: string): InteractSessionRecord => ({
    id: '00000000-0000-4000-8000-0000000000aa',
    teamId: '00000000-0000-4000-8000-0000000000bb',
    scrapeJobId: '00000000-0000-4000-8000-0000000000cc',
    status: 'active',
    options: { url, mobile: false, proxy: 'basic', blockAds: true, skipTlsVerification: true },
    currentUrl: url,
    state: EMPTY_PROFILE,
    createdAt: new Date(),
    lastActiveAt: new Date(),
  });

  const run = async (code: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    const target = new SessionPageTarget({
      page: session.slot.page,
      cdp: session.cdp,
      resolver: session.slot.guard.resolver,
      viewport: session.viewport,
      deadline,
      maxDocumentBytes: 5 * 1024 * 1024,
      storeScreenshot: async (data, contentType) =>
        `data:${contentType};base64,${data.subarray(0, 8).toString('base64')}`,
    });
    const sandbox = await openSandbox(pool, settings);
    try {
      return await runInSandbox(sandbox, { code, deadline, target, targetCdp: session.cdp });
    } finally {
      await closeSlot(sandbox);
    }
  };

  beforeAll(async () => {
    site = await startInteractSite();
    privateSite = await startFixtureServer({ '*': html('<h1>internal secret</h1>') }, '127.0.0.2');
    // 127.0.0.1 counts as public; 127.0.0.2 (the "private" site) stays private.
    const policy = new AddressPolicy(false, ['127.0.0.1']);
    pool = await BrowserPool.launch({
      executablePath: CHROMIUM,
      concurrency: 1,
      policy,
      maxTransferBytes: 16 * 1024 * 1024,
    });
    settings = { policy, maxTransferBytes: 16 * 1024 * 1024, settleMs: 1_000 };
    session = await openSessionPage(
      pool,
      new ProxyPools({ basic: [], enhanced: [] }),
      settings,
      sessionRecord(`${site.url}/form`),
      Date.now() + 30_000,
    );
  });

  afterAll(async () => {
    if (session) await closeSlot(session.slot);
    await pool?.close();
    await site?.close();
    await privateSite?.close();
  });

  it('runs Playwright-style code on the session page: fill, click, read, console, return value', async () => {
    const outcome = await run(`
      await page.fill('#name', 'Ada');
      await page.click('#send');
      console.log('clicked', { ok: true });
      return { result: await page.textContent('#result'), title: await page.title(), inputs: await page.locator('input').count() };
    `);
    expect(outcome).toMatchObject({ exitCode: 0, killed: false, truncated: false, stderr: '' });
    expect(outcome.stdout).toBe('clicked {"ok":true}\n');
    expect(JSON.parse(outcome.result ?? 'null')).toEqual({
      result: 'Hello, Ada!',
      title: 'Contact form',
      inputs: 2,
    });
  });

  it('keeps the page between calls (the DOM state of the previous call is still there)', async () => {
    const outcome = await run(`return await page.innerText('#result');`);
    expect(JSON.parse(outcome.result ?? 'null')).toBe('Hello, Ada!');
  });

  it('gives the code no way into the worker process: no process, require, Buffer or module', async () => {
    const outcome = await run(
      `return [typeof process, typeof require, typeof Buffer, typeof module, typeof globalThis.process, page.constructor.constructor('return typeof process')()];`,
    );
    expect(JSON.parse(outcome.result ?? 'null')).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
    ]);
    const required = await run(`const fs = require('fs'); return fs.readFileSync('/etc/passwd', 'utf8');`);
    expect(required.exitCode).toBe(1);
    expect(required.stderr).toMatch(/ReferenceError: require is not defined/);
    expect(required.result).toBeUndefined();
  });

  it('refuses operations outside the whitelist even when the binding is called directly', async () => {
    const outcome = await run(`
      try { await globalThis.__quarryPageCall('browser', '[]'); } catch (error) { console.log(error.message); }
      try { await globalThis.__quarryPageCall('evaluate', JSON.stringify(['node', 'process.exit(1)', []])); } catch (error) { console.log(error.message); }
      return page.browser === undefined && page.context === undefined;
    `);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toMatch(/page\.browser is not available in the interact sandbox/);
    expect(outcome.stdout).toMatch(/page\.evaluate: invalid arguments/);
    expect(outcome.result).toBe('true');
  });

  it('applies the SSRF guard to page.goto, to the page and to the sandbox itself', async () => {
    const target = `${privateSite.url}/admin`;
    const outcome = await run(`
      const errors = [];
      try { await page.goto(${JSON.stringify(target)}); } catch (error) { errors.push(error.message); }
      errors.push(await page.evaluate((url) => fetch(url).then(() => 'reached', () => 'refused'), ${JSON.stringify(target)}));
      errors.push(await fetch(${JSON.stringify(target)}).then(() => 'reached', () => 'refused'));
      return errors;
    `);
    expect(outcome.exitCode).toBe(0);
    const [gotoError, pageFetch, sandboxFetch] = JSON.parse(outcome.result ?? '[]') as string[];
    expect(gotoError).toMatch(/blocked insecure target URL/);
    expect([pageFetch, sandboxFetch]).toEqual(['refused', 'refused']);
    expect(privateSite.hits.size).toBe(0);
    // The session page stayed where it was.
    expect(session.slot.page.url()).toBe(`${site.url}/form`);
  });

  it('navigates to an allowed page with page.goto', async () => {
    const outcome = await run(
      `const opened = await page.goto(${JSON.stringify(`${site.url}/second`)}); return [opened.status, await page.textContent('h1')];`,
    );
    expect(JSON.parse(outcome.result ?? 'null')).toEqual([200, 'The second page']);
  });

  it('reports errors thrown by the code in stderr with exit code 1', async () => {
    const outcome = await run(
      `console.log('before'); await page.click('#does-not-exist', { timeout: 300 });`,
    );
    expect(outcome).toMatchObject({ exitCode: 1, killed: false, stdout: 'before\n' });
    expect(outcome.stderr).toMatch(/no element matches #does-not-exist/);
  });

  it('kills code that runs past the timeout, also a busy loop, and the session page still answers', async () => {
    const started = Date.now();
    const outcome = await run(`console.log('looping'); while (true) {}`, 2_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome).toMatchObject({ exitCode: 1, killed: true, stdout: 'looping\n' });
    const inPage = await run(`return await page.evaluate('while (true) {}');`, 2_000);
    expect(inPage.killed).toBe(true);
    const after = await run(`return await page.title();`);
    expect(after.result).toBe('"Second page"');
  });

  it('cuts output beyond its limit and says so', async () => {
    const outcome = await run(`for (let i = 0; i < 2000; i += 1) console.log('x'.repeat(100)); return 1;`);
    expect(outcome.truncated).toBe(true);
    expect(outcome.stdout?.length).toBeLessThanOrEqual(64 * 1024);
    expect(outcome.result).toBe('1');
  });

  describe('prompts', () => {
    const runPrompt = async (prompt: string, llm: LlmProvider) => {
      const deadline = Date.now() + 20_000;
      const target = new SessionPageTarget({
        page: session.slot.page,
        cdp: session.cdp,
        resolver: session.slot.guard.resolver,
        viewport: session.viewport,
        deadline,
        maxDocumentBytes: 5 * 1024 * 1024,
        storeScreenshot: async () => 'unused',
      });
      const usage = {
        teamId: '00000000-0000-4000-8000-0000000000bb',
        jobId: '00000000-0000-4000-8000-0000000000dd',
      };
      const planned = await planPrompt(prompt, {
        llm,
        snapshot: () => snapshotPage(session.cdp),
        usage,
        deadline,
      });
      return runPromptPlan(
        planned.plan,
        {
          actions: {
            page: session.slot.page,
            cdp: session.cdp,
            signal: AbortSignal.timeout(20_000),
            deadline,
            viewport: session.viewport,
            store: async () => 'unused',
          },
          cdp: session.cdp,
          target,
          answer: planned.modelAnswers
            ? (question, text) => answerWithModel(llm, question, text, { usage, deadline })
            : undefined,
        },
        planned.note,
      );
    };

    beforeEach(async () => {
      await session.slot.page.goto(`${site.url}/form`, { waitUntil: 'load' });
    });

    it('runs an offline prompt through the action executor and labels the fallback', async () => {
      const outcome = await runPrompt(
        'type Grace into the Your name field, then click Send message. What does the page say?',
        new OfflineProvider(1_000, 10_000),
      );
      expect(outcome.output).toMatch(/Typed "Grace" into "Your name field" \(input#name\)/);
      expect(outcome.output).toMatch(/Clicked "Send message" \(button#send\)/);
      expect(outcome.output).toMatch(/Hello, Grace!/);
      expect(outcome.output).toMatch(
        /No language model is configured: the prompt was read by the built-in parser/,
      );
      expect(JSON.parse(outcome.result ?? '{}')).toMatchObject({
        title: 'Contact form',
        answer: expect.stringContaining('Hello, Grace!'),
      });
    });

    it('refuses a prompt the offline parser cannot read with 422', async () => {
      await expect(
        runPrompt('make the page prettier', new OfflineProvider(1_000, 10_000)),
      ).rejects.toMatchObject({ status: 422 });
    });

    it('plans with a language model from the page elements and answers from the page text after the steps', async () => {
      const elementsOf = (request: FakeLlmRequest) => {
        const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
        return JSON.parse(/Elements:\n([\s\S]*?)\n\nInstruction:/.exec(user)?.[1] ?? '[]') as {
          selector: string;
          label?: string;
          text?: string;
        }[];
      };
      const llm = await startFakeLlmServer((request) => {
        if (request.responseFormat?.name === 'interact_plan') {
          const elements = elementsOf(request);
          const name = elements.find((element) => element.label === 'Your name');
          const send = elements.find((element) => element.text === 'Send message');
          return {
            json: {
              steps: [
                { type: 'type', selector: name?.selector, text: 'Linus' },
                { type: 'click', selector: send?.selector },
              ],
              question: 'What does the page say?',
            },
          };
        }
        const greeting = /Hello, \w+!/.exec(request.text)?.[0] ?? 'nothing';
        return `The page says ${greeting}`;
      });
      try {
        const provider = new OpenAiCompatibleProvider({
          baseUrl: llm.url,
          model: 'fake',
          timeoutMs: 5_000,
          maxAttempts: 1,
          maxOutputTokens: 1_000,
          maxInputChars: 50_000,
        });
        const outcome = await runPrompt('Say hello as Linus and tell me what the page answers', provider);
        expect(JSON.parse(outcome.result ?? '{}')).toMatchObject({ answer: 'The page says Hello, Linus!' });
        expect(outcome.output).not.toMatch(/built-in parser/);
        expect(llm.calls.map((call) => call.responseFormat?.name ?? 'answer')).toEqual([
          'interact_plan',
          'answer',
        ]);

        // The model cannot be reached: the offline parser reads the prompt and says why.
        llm.respondWith(() => ({ status: 500 }));
        const fallback = await runPrompt('click Send message', provider);
        expect(fallback.output).toMatch(
          /read by the built-in parser because the language model could not be used/,
        );
      } finally {
        await llm.close();
      }
    });
  });
});
