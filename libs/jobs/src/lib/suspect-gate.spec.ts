import { SuspectGate } from './suspect-gate';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('SuspectGate', () => {
  it('runs ordinary work concurrently', async () => {
    const sut = new SuspectGate();
    const a = deferred();
    const b = deferred();
    const runs = [sut.run(false, () => a.promise), sut.run(false, () => b.promise)];
    await tick();
    expect(sut.running).toEqual({ shared: 2, exclusive: false, waiting: 0 });
    a.resolve();
    b.resolve();
    await Promise.all(runs);
  });

  it('runs a suspect alone: after the work in flight, before the work that came later', async () => {
    const sut = new SuspectGate();
    const order: string[] = [];
    const first = deferred();
    const suspect = deferred();
    const running = sut.run(false, async () => {
      await first.promise;
      order.push('first');
    });
    const suspected = sut.run(true, async () => {
      order.push('suspect starts');
      await suspect.promise;
      order.push('suspect ends');
    });
    const later = sut.run(false, async () => {
      order.push('later');
    });
    await tick();
    expect(order).toEqual([]);
    expect(sut.running).toEqual({ shared: 1, exclusive: false, waiting: 2 });
    first.resolve();
    await running;
    await tick();
    expect(order).toEqual(['first', 'suspect starts']);
    expect(sut.running).toEqual({ shared: 0, exclusive: true, waiting: 1 });
    suspect.resolve();
    await Promise.all([suspected, later]);
    expect(order).toEqual(['first', 'suspect starts', 'suspect ends', 'later']);
  });

  it('lets the next work in when a run throws', async () => {
    const sut = new SuspectGate();
    await expect(sut.run(true, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sut.run(false, async () => 'next')).resolves.toBe('next');
    expect(sut.running).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });
});
