import { parsePlanningAnswer } from './model-planner';
import {
  absorbRound,
  addIndexHits,
  EXTRACTION_CREDITS,
  initialMemory,
  limitsFor,
  type PlanInput,
  planNext,
  startRound,
} from './planner';

const limits = limitsFor('medium', 20);
const base = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  memory: initialMemory(
    ['https://a.example/x', 'https://a.example/y', 'https://a.example/x'],
    'deterministic',
  ),
  prompt: 'find the pricing of the pro plan',
  strict: false,
  limits,
  creditsSpent: 0,
  satisfied: false,
  ...overrides,
});
const page = (url: string, round: number, ok = true) => ({
  url,
  taskId: url,
  jobId: url,
  round,
  ok,
  credits: 1,
  links: [] as string[],
});

describe('deterministic planner', () => {
  it('searches the index first, unless constrained to the given URLs', () => {
    expect(planNext(base())).toEqual({ kind: 'search_index', query: 'find the pricing of the pro plan' });
    const strict = planNext(base({ strict: true }));
    expect(strict.kind).toBe('read');
  });

  it('reads the given URLs (deduplicated) and index hits, then extracts once the task is answered', () => {
    let memory = addIndexHits(
      initialMemory(['https://a.example/x', 'https://a.example/x/'], 'deterministic'),
      [{ url: 'https://b.example/pricing', score: 2 }],
    );
    const first = planNext(base({ memory }));
    expect(first).toEqual({
      kind: 'read',
      urls: [
        expect.objectContaining({ url: 'https://a.example/x', reason: 'given' }),
        expect.objectContaining({ url: 'https://b.example/pricing', reason: 'index' }),
      ],
    });
    if (first.kind !== 'read') throw new Error('expected read');
    memory = startRound(memory, first.urls);
    memory = absorbRound(memory, 1, [page('https://a.example/x', 1), page('https://b.example/pricing', 1)], {
      prompt: 'pricing',
      strict: false,
    });
    expect(planNext(base({ memory, satisfied: true }))).toEqual({ kind: 'extract' });
  });

  it('follows relevant same-site links while the task is not answered', () => {
    let memory = { ...initialMemory(['https://a.example/'], 'deterministic'), searched: true };
    memory = startRound(memory, memory.candidates);
    memory = absorbRound(
      memory,
      1,
      [
        {
          ...page('https://a.example/', 1),
          links: [
            'https://a.example/plans/pricing',
            'https://a.example/about',
            'https://other.example/pricing',
            'https://a.example/logo.png',
          ],
        },
      ],
      { prompt: 'pricing of the pro plan', strict: false },
    );
    expect(memory.candidates.map((candidate) => candidate.url)).toEqual(['https://a.example/plans/pricing']);
    expect(planNext(base({ memory }))).toMatchObject({
      kind: 'read',
      urls: [{ url: 'https://a.example/plans/pricing', reason: 'link' }],
    });
    // Constrained to the given URLs: no link is followed.
    const fresh = startRound({ ...initialMemory(['https://a.example/'], 'deterministic'), searched: true }, [
      { url: 'https://a.example/', reason: 'given', score: 1 },
    ]);
    const strict = absorbRound(
      fresh,
      1,
      [{ ...page('https://a.example/', 1), links: ['https://a.example/plans/pricing'] }],
      { prompt: 'pricing', strict: true },
    );
    expect(strict.candidates).toEqual([]);
    expect(strict.pages).toHaveLength(1);
  });

  it('never makes a candidate of what is not a web page: an upload indexed by file name, a browser error page', () => {
    let memory = initialMemory(['ledger.html', 'https://a.example/given'], 'deterministic', {
      urls: ['chrome-error://chromewebdata/'],
      conversation: [],
    });
    memory = addIndexHits(memory, [
      { url: 'ledger.html', score: 9 },
      { url: 'chrome-error://chromewebdata/', score: 8 },
      { url: 'https://a.example/hit', score: 1 },
    ]);
    expect(memory.candidates.map((candidate) => candidate.url)).toEqual([
      'https://a.example/given',
      'https://a.example/hit',
    ]);
    // nothing readable left: the run refuses instead of handing an unreadable URL to a sub-agent
    expect(
      planNext(
        base({
          memory: addIndexHits(initialMemory([], 'deterministic'), [{ url: 'ledger.html', score: 5 }]),
        }),
      ),
    ).toMatchObject({
      kind: 'finish',
      outcome: 'refused',
    });
  });

  it('refuses when there is nothing to read', () => {
    const memory = { ...initialMemory([], 'deterministic'), searched: true };
    expect(planNext(base({ memory }))).toMatchObject({ kind: 'finish', outcome: 'refused' });
  });

  it('fails when no page could be read', () => {
    let memory = { ...initialMemory(['https://a.example/'], 'deterministic'), searched: true };
    memory = startRound(memory, memory.candidates);
    memory = absorbRound(memory, 1, [{ ...page('https://a.example/', 1, false), error: 'HTTP 500' }], {
      prompt: 'x',
      strict: true,
    });
    expect(planNext(base({ memory }))).toEqual({
      kind: 'finish',
      outcome: 'failed',
      message: 'None of the 1 page(s) the agent tried could be read (HTTP 500).',
    });
  });

  it('reads only what maxCredits affords and stops at the limit', () => {
    const memory = {
      ...initialMemory(
        ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'],
        'deterministic',
      ),
      searched: true,
    };
    const partial = planNext(base({ memory, maxCredits: 2 }));
    expect(partial.kind === 'read' && partial.urls.length).toBe(2);
    expect(planNext(base({ memory, maxCredits: 2, creditsSpent: 2 }))).toEqual({
      kind: 'finish',
      outcome: 'credit_limit_reached',
    });
    let read = startRound(memory, memory.candidates);
    read = absorbRound(read, 1, [page('https://a.example/1', 1)], { prompt: 'x', strict: true });
    expect(
      planNext(
        base({ memory: read, satisfied: true, creditsSpent: 3, maxCredits: 3 + EXTRACTION_CREDITS - 1 }),
      ),
    ).toEqual({ kind: 'finish', outcome: 'credit_limit_reached' });
    expect(
      planNext(base({ memory: read, satisfied: true, creditsSpent: 3, maxCredits: 3 + EXTRACTION_CREDITS })),
    ).toEqual({ kind: 'extract' });
  });

  it('stops reading after the effort allows no more rounds', () => {
    let memory = { ...initialMemory(['https://a.example/1'], 'deterministic'), searched: true };
    const low = limitsFor('low', 20);
    memory = startRound(memory, memory.candidates);
    memory = absorbRound(
      memory,
      1,
      [{ ...page('https://a.example/1', 1), links: ['https://a.example/pricing'] }],
      { prompt: 'pricing', strict: false },
    );
    expect(planNext(base({ memory, limits: low }))).toEqual({ kind: 'extract' });
  });
});

describe('model planner answers', () => {
  const candidates = [
    { url: 'https://a.example/pricing', reason: 'link' as const, score: 1 },
    { url: 'https://a.example/blog', reason: 'link' as const, score: 0.2 },
  ];
  it('keeps only candidate URLs, up to the allowed number', () => {
    expect(
      parsePlanningAnswer(
        {
          action: 'read',
          urls: ['https://evil.example/', 'https://a.example/pricing', 'https://a.example/blog'],
          reasoning: 'r',
        },
        candidates,
        1,
      ),
    ).toEqual({
      kind: 'read',
      urls: [candidates[0]],
      reasoning: 'r',
    });
  });
  it('extracts when the model finishes or names nothing usable', () => {
    expect(parsePlanningAnswer({ action: 'finish', reasoning: 'enough' }, candidates, 3)).toEqual({
      kind: 'extract',
      reasoning: 'enough',
    });
    expect(
      parsePlanningAnswer({ action: 'read', urls: ['https://elsewhere.example/'] }, candidates, 3),
    ).toEqual({ kind: 'extract', reasoning: undefined });
  });

  it('adds web results after index hits, once per URL, and reads them when nothing else is known', () => {
    let memory = addIndexHits(initialMemory([], 'deterministic'), [
      { url: 'https://a.example/idx', score: 2 },
    ]);
    memory = addIndexHits(
      memory,
      [
        { url: 'https://a.example/idx', score: 1 },
        { url: 'https://b.example/web', score: 1 },
        { url: 'https://b.example/web#again', score: 0.9 },
      ],
      'web',
    );
    expect(memory.candidates.map((candidate) => [candidate.url, candidate.reason])).toEqual([
      ['https://a.example/idx', 'index'],
      ['https://b.example/web', 'web'],
    ]);
    expect(memory.searched).toBe(true);
  });
});
