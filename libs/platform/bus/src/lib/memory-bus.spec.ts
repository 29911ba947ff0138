import pino from 'pino';
import { z } from 'zod';

import { MemoryBus } from './memory-bus';
import type { BusMessage } from './message-bus';

const logger = pino({ level: 'silent' });
const until = async (predicate: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('MemoryBus', () => {
  it('delivers each message once per group and to every group', async () => {
    const sut = new MemoryBus(logger);
    await sut.start();
    const a: unknown[] = [];
    const b1: unknown[] = [];
    const b2: unknown[] = [];
    await sut.subscribe(
      'jobEvents',
      { group: 'a', concurrency: 1 },
      async (message) => void a.push(message.value),
    );
    await sut.subscribe(
      'jobEvents',
      { group: 'b', concurrency: 1 },
      async (message) => void b1.push(message.value),
    );
    await sut.subscribe(
      'jobEvents',
      { group: 'b', concurrency: 1 },
      async (message) => void b2.push(message.value),
    );
    for (let i = 0; i < 10; i += 1) await sut.publish('jobEvents', { i });
    await until(() => a.length === 10 && b1.length + b2.length === 10);
    expect(b1.length).toBe(5);
    await sut.stop();
  });

  it('redelivers until the handler succeeds (at least once)', async () => {
    const sut = new MemoryBus(logger);
    await sut.start();
    const attempts: number[] = [];
    await sut.subscribe('scrapeJobs', { group: 'w', concurrency: 1 }, async (message: BusMessage) => {
      attempts.push(message.attempt);
      if (message.attempt < 3) throw new Error('database down');
    });
    await sut.publish('scrapeJobs', { job: 1 });
    await until(() => attempts.length === 3, 10_000);
    expect(attempts).toEqual([1, 2, 3]);
    await sut.stop();
  });

  it('hands the handler only payloads its schema accepts; the others are reported and skipped', async () => {
    const sut = new MemoryBus(logger);
    await sut.start();
    const handled: { id: number }[] = [];
    const invalid: string[] = [];
    const schema = z.object({ id: z.number() }).strict();
    await sut.subscribe(
      'scrapeJobs',
      { group: 'w', concurrency: 1, schema, onInvalid: (_error, raw) => void invalid.push(raw) },
      async (message) => void handled.push(message.value),
    );
    await sut.publish('scrapeJobs', { id: 1 });
    await sut.publish('scrapeJobs', { id: 'two' });
    await sut.publish('scrapeJobs', { id: 3, extra: true });
    await sut.publish('scrapeJobs', { id: 4 });
    await until(() => handled.length === 2 && invalid.length === 2);
    expect(handled).toEqual([{ id: 1 }, { id: 4 }]);
    expect(invalid.map((raw) => JSON.parse(raw))).toEqual([{ id: 'two' }, { id: 3, extra: true }]);
    await sut.stop();
  });

  it('keeps messages published before the first subscriber', async () => {
    const sut = new MemoryBus(logger);
    await sut.start();
    await sut.publish('scrapeJobs', { early: true });
    const seen: unknown[] = [];
    await sut.subscribe(
      'scrapeJobs',
      { group: 'w', concurrency: 1 },
      async (message) => void seen.push(message.value),
    );
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ early: true }]);
    await sut.stop();
  });

  it('bounds handlers in flight by the subscription concurrency', async () => {
    const sut = new MemoryBus(logger);
    await sut.start();
    let running = 0;
    let peak = 0;
    let done = 0;
    await sut.subscribe('scrapeJobs', { group: 'w', concurrency: 3 }, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      done += 1;
    });
    for (let i = 0; i < 12; i += 1) await sut.publish('scrapeJobs', { i });
    await until(() => done === 12);
    expect(peak).toBe(3);
    await sut.stop();
  });
});
