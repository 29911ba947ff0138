import { agentEndEvent, agentStatusBody, agentWebhookEvents } from './agent-webhooks';

describe('agent webhooks', () => {
  const all = {
    url: 'https://hooks.example/x',
    headers: {},
    metadata: {},
    events: ['started', 'action', 'completed', 'failed', 'cancelled'] as (
      'started' | 'action' | 'completed' | 'failed' | 'cancelled'
    )[],
  };
  const run = {
    model: 'spark-2',
    expiresAt: new Date('2026-11-26T00:00:00Z'),
    creditsSpent: 6,
    errorMessage: null,
    data: { price: 49 },
  };

  it('builds the status body (docs/agent.md#api): no data and 0 credits for a failed run', () => {
    expect(agentStatusBody({ ...run, state: 'completed', effort: 'low' })).toEqual({
      success: true,
      status: 'completed',
      model: 'spark-2',
      expiresAt: '2026-11-26T00:00:00.000Z',
      creditsUsed: 6,
      effort: 'low',
      data: { price: 49 },
    });
    expect(
      agentStatusBody({ ...run, state: 'failed', errorMessage: 'The agent run was cancelled.' }),
    ).toEqual({
      success: true,
      status: 'failed',
      model: 'spark-2',
      expiresAt: '2026-11-26T00:00:00.000Z',
      creditsUsed: 0,
      error: 'The agent run was cancelled.',
    });
  });

  it("reports an offline fallback's warning with a completed result only", () => {
    const warning = 'agent: no language model is configured (LLM_BASE_URL); … (extractive offline fallback).';
    expect(agentStatusBody({ ...run, state: 'completed', warning })).toMatchObject({
      status: 'completed',
      warning,
    });
    expect(agentStatusBody({ ...run, state: 'failed', errorMessage: 'boom', warning })).not.toHaveProperty(
      'warning',
    );
    expect(agentStatusBody({ ...run, state: 'completed', warning: null })).not.toHaveProperty('warning');
  });

  it('sends the subscribed events only, the end event by outcome', () => {
    expect(agentWebhookEvents(all, { event: 'started' })).toEqual([
      { type: 'agent.started', payload: { success: true } },
    ]);
    const action = { url: 'https://a.example/', ok: false, error: 'Not Found' };
    expect(agentWebhookEvents(all, { event: 'action', action })).toEqual([
      { type: 'agent.action', payload: { success: false, document: action } },
    ]);
    expect(agentWebhookEvents({ ...all, events: ['completed'] }, { event: 'started' })).toEqual([]);
    expect(agentWebhookEvents(undefined, { event: 'started' })).toEqual([]);
    const failed = agentStatusBody({ ...run, state: 'failed', errorMessage: 'boom' });
    expect(agentEndEvent('cancelled', failed)).toEqual({ event: 'cancelled', error: 'boom' });
    expect(agentEndEvent('credit_limit_reached', failed)).toEqual({ event: 'failed', error: 'boom' });
    const done = agentStatusBody({ ...run, state: 'completed' });
    expect(agentWebhookEvents(all, agentEndEvent('succeeded', done))).toEqual([
      { type: 'agent.completed', payload: { success: true, document: done } },
    ]);
  });
});
