import { GroupedStatement } from './grouped-statement';

describe('GroupedStatement', () => {
  it('runs the inputs submitted while a statement runs together in the next one, one at a time', async () => {
    const batches: number[][] = [];
    let running = 0;
    const sut = new GroupedStatement<number, number>(async (inputs) => {
      running += 1;
      expect(running).toBe(1);
      batches.push(inputs);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return inputs.map((input) => input * 10);
    }, 3);
    const first = sut.submit(1);
    const waiting = [2, 3, 4, 5].map((input) => sut.submit(input));
    expect(await first).toBe(10);
    expect(await Promise.all(waiting)).toEqual([20, 30, 40, 50]);
    // The same turn's inputs in one statement (at most 3), the rest in the next.
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('starts the next statement as soon as the running one ends, without waiting for another turn', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => undefined;
    const sut = new GroupedStatement<number, number>(async (inputs) => {
      batches.push(inputs);
      if (batches.length === 1) await new Promise<void>((resolve) => (finish = resolve));
      return inputs;
    });
    const first = sut.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const waiting = [sut.submit(2), sut.submit(3)];
    let immediateRan = false;
    setImmediate(() => (immediateRan = true));
    finish();
    await first;
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve(); // the batch's own promise chain
    // Still within the same turn (no setImmediate callback yet), the waiting inputs are running.
    expect(immediateRan).toBe(false);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(await Promise.all(waiting)).toEqual([2, 3]);
  });

  it('runs a failed batch again input by input, so only the bad input fails', async () => {
    const sut = new GroupedStatement<number, number>(async (inputs) => {
      if (inputs.includes(13)) throw new Error('bad input');
      return inputs;
    });
    const results = await Promise.allSettled([1, 13, 2].map((input) => sut.submit(input)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await sut.submit(4)).toBe(4);
  });
});
