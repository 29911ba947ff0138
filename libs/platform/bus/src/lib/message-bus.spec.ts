import { publishTimeoutFor } from './message-bus';

describe('publishTimeoutFor', () => {
  it('gives a publish what is left of the job time minus 5 s for the worker, at least 10 s', () => {
    const now = 1_000_000;
    expect(publishTimeoutFor(now + 60_000, now)).toBe(55_000);
    expect(publishTimeoutFor(now + 12_000, now)).toBe(10_000);
    expect(publishTimeoutFor(now - 1, now)).toBe(10_000);
  });
});
