import { webhookSchema } from '@quarry/contracts';

import {
  extractLimits,
  extractStatusOf,
  extractTask,
  extractWebhookEvents,
  findSources,
  siteGlobBase,
  unreadableMessage,
} from './extract-job';

describe('extract jobs', () => {
  it('reads a trailing /* as the site it names, nothing else', () => {
    expect(siteGlobBase('https://example.com/*')).toBe('https://example.com');
    expect(siteGlobBase(' https://example.com/blog/* ')).toBe('https://example.com/blog');
    expect(siteGlobBase('https://example.com/')).toBeUndefined();
    expect(siteGlobBase('https://example.com/a*')).toBeUndefined();
    expect(siteGlobBase('https:///*')).toBeUndefined();
  });

  it('reads every page in one round, capped by limit and AGENT_MAX_PAGES', () => {
    expect(extractLimits(20)).toEqual({ maxPages: 20, pagesPerRound: 20, maxRounds: 1 });
    expect(extractLimits(20, 5)).toEqual({ maxPages: 5, pagesPerRound: 5, maxRounds: 1 });
    expect(extractLimits(20, 500).maxPages).toBe(20);
  });

  it('gives the extraction a task when the caller sent no prompt', () => {
    expect(extractTask('Find the price', true)).toBe('Find the price');
    expect(extractTask(' ', true)).toMatch(/JSON schema/);
    expect(extractTask('', false)).toMatch(/main information/);
  });

  it('reports processing, completed, failed and cancelled', () => {
    expect(extractStatusOf('queued', null)).toBe('processing');
    expect(extractStatusOf('running', null)).toBe('processing');
    expect(extractStatusOf('cancelling', null)).toBe('processing');
    expect(extractStatusOf('completed', 'succeeded')).toBe('completed');
    expect(extractStatusOf('failed', 'refused')).toBe('failed');
    expect(extractStatusOf('failed', 'cancelled')).toBe('cancelled');
  });

  it('emits extract.started|completed|failed as subscribed', () => {
    const all = webhookSchema.parse('https://hooks.example.com/a');
    const completedOnly = webhookSchema.parse({ url: 'https://hooks.example.com/a', events: ['completed'] });
    expect(extractWebhookEvents(undefined, 'started')).toEqual([]);
    expect(extractWebhookEvents(all, 'started')).toEqual([
      { type: 'extract.started', payload: { success: true } },
    ]);
    expect(extractWebhookEvents(all, 'completed', { result: { data: 1 } })).toEqual([
      { type: 'extract.completed', payload: { success: true, document: { data: 1 } } },
    ]);
    expect(extractWebhookEvents(all, 'failed', { error: 'boom' })).toEqual([
      { type: 'extract.failed', payload: { success: false, error: 'boom' } },
    ]);
    expect(extractWebhookEvents(completedOnly, 'started')).toEqual([]);
    expect(extractWebhookEvents(completedOnly, 'failed', { error: 'boom' })).toEqual([]);
  });

  it('finds the pages each field was read from', () => {
    const pages = [
      { url: 'https://a.example/1', text: 'Trail Runner 3 costs $129.00' },
      { url: 'https://a.example/2', text: 'Made by Summit Gear' },
    ];
    expect(
      findSources({ name: 'trail runner 3', price: 129, brand: { name: 'Summit Gear' }, tags: ['x'] }, pages),
    ).toEqual({
      name: ['https://a.example/1'],
      price: ['https://a.example/1'],
      brand: ['https://a.example/2'],
      tags: ['https://a.example/1', 'https://a.example/2'],
    });
    expect(findSources('Summit Gear', pages)).toEqual({ result: ['https://a.example/2'] });
  });

  it('says why no page could be read', () => {
    expect(
      unreadableMessage([
        { url: 'u', taskId: 't', jobId: 'j', round: 1, ok: false, credits: 0, error: 'HTTP 404' },
        { url: 'v', taskId: 't2', jobId: 'j2', round: 1, ok: false, credits: 0, error: 'HTTP 404' },
      ]),
    ).toBe('None of the 2 page(s) of the extract job could be read (HTTP 404).');
  });
});
