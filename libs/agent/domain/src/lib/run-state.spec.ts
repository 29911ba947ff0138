import { uuidFromKey } from './keys';
import {
  isTerminalState,
  publicStatus,
  requestCancel,
  type RunState,
  terminate,
  traceError,
} from './run-state';

describe('agent run state machine', () => {
  it('cancels queued and running runs, refuses cancelling and finished ones with their reason', () => {
    expect(requestCancel('queued')).toEqual({ ok: true, next: 'cancelling' });
    expect(requestCancel('running')).toEqual({ ok: true, next: 'cancelling' });
    expect(requestCancel('cancelling')).toEqual({ ok: false, reason: 'already_cancelling' });
    expect(requestCancel('completed')).toEqual({ ok: false, reason: 'already_finished' });
    expect(requestCancel('failed')).toEqual({ ok: false, reason: 'already_finished' });
  });

  it('reports processing until the run is terminal', () => {
    const states: RunState[] = ['queued', 'running', 'cancelling', 'completed', 'failed'];
    expect(states.map(publicStatus)).toEqual([
      'processing',
      'processing',
      'processing',
      'completed',
      'failed',
    ]);
    expect(states.filter(isTerminalState)).toEqual(['completed', 'failed']);
  });

  it('completes only succeeded runs; every other outcome fails with its error code', () => {
    expect(terminate('running', 'succeeded')).toEqual({
      state: 'completed',
      outcome: 'succeeded',
      error: null,
    });
    expect(terminate('running', 'credit_limit_reached', { maxCredits: 3 })).toEqual({
      state: 'failed',
      outcome: 'credit_limit_reached',
      error: {
        code: 'credit_limit_reached',
        source: 'billing',
        retryable: false,
        message: expect.stringContaining('maxCredits: 3'),
      },
    });
    expect(terminate('running', 'refused')?.error).toMatchObject({ code: 'refused', retryable: false });
    expect(terminate('running', 'failed', { message: 'boom' })?.error).toEqual({
      code: 'internal',
      source: 'system',
      retryable: true,
      message: 'boom',
    });
  });

  it('ends a cancelling run as cancelled whatever outcome arrives, and leaves finished runs alone', () => {
    expect(terminate('cancelling', 'succeeded')).toEqual({
      state: 'failed',
      outcome: 'cancelled',
      error: traceError('cancelled'),
    });
    expect(terminate('cancelling', 'credit_limit_reached')?.outcome).toBe('cancelled');
    expect(terminate('completed', 'failed')).toBeUndefined();
    expect(terminate('failed', 'succeeded')).toBeUndefined();
  });

  it('derives stable version-5 UUIDs from keys', () => {
    const id = uuidFromKey('run-1:step-2');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFromKey('run-1:step-2')).toBe(id);
    expect(uuidFromKey('run-1:step-3')).not.toBe(id);
  });
});
