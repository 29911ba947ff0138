import pino from 'pino';

import type { JobEvent } from '@quarry/contracts';
import { MemoryBus } from '@quarry/platform/bus';

import type { JobRecord, JobRepository } from './job.repository';
import { JobWaiter } from './job-waiter';

const JOB = '11111111-1111-4111-8111-111111111111';
const TEAM = '22222222-2222-4222-8222-222222222222';

function fakeJobs(finished: JobRecord[] = []): JobRepository & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    findFinished: async (ids: readonly string[]) => (
      calls.push([...ids]),
      finished.filter((job) => ids.includes(job.id))
    ),
  } as unknown as JobRepository & {
    calls: string[][];
  };
}

describe('JobWaiter', () => {
  const logger = pino({ level: 'silent' });

  it('wakes every waiter of a job on its terminal event', async () => {
    const bus = new MemoryBus(logger);
    await bus.start();
    const sut = new JobWaiter(bus, fakeJobs(), logger);
    await sut.start();
    const first = sut.wait(JOB, 5_000);
    const second = sut.wait(JOB, 5_000);
    const event: JobEvent = { jobId: JOB, teamId: TEAM, kind: 'scrape', status: 'completed', at: 1 };
    await bus.publish('jobEvents', { ...event, status: 'active' });
    await bus.publish('jobEvents', event);
    await expect(first).resolves.toMatchObject({ status: 'completed' });
    await expect(second).resolves.toMatchObject({ status: 'completed' });
    await bus.stop();
  });

  it('finds a job whose event was missed with one batched poll, and gives up at the timeout', async () => {
    const bus = new MemoryBus(logger);
    await bus.start();
    const finished = {
      id: JOB,
      teamId: TEAM,
      kind: 'scrape',
      status: 'failed',
      zeroDataRetention: false,
      error: { code: 'SCRAPE_TIMEOUT', message: 'x' },
    } as JobRecord;
    const jobs = fakeJobs([finished]);
    const sut = new JobWaiter(bus, jobs, logger);
    const other = sut.wait('33333333-3333-4333-8333-333333333333', 1_500);
    await expect(sut.wait(JOB, 5_000)).resolves.toMatchObject({
      status: 'failed',
      error: { code: 'SCRAPE_TIMEOUT' },
    });
    expect(jobs.calls[0]).toEqual(expect.arrayContaining([JOB, '33333333-3333-4333-8333-333333333333']));
    await expect(other).resolves.toBeUndefined();
    await bus.stop();
  });

  it('lets the event answer for a job the poll just found finished: it carries details and Retry-After', async () => {
    const bus = new MemoryBus(logger);
    await bus.start();
    const limited = { code: 'CONCURRENCY_LIMITED', message: 'Concurrency limit reached' } as const;
    const jobs = fakeJobs([
      {
        id: JOB,
        teamId: TEAM,
        kind: 'scrape',
        status: 'failed',
        zeroDataRetention: false,
        error: limited,
      } as JobRecord,
    ]);
    const sut = new JobWaiter(bus, jobs, logger);
    await sut.start();
    const waiting = sut.wait(JOB, 10_000);
    // The first poll (after 1 s) already sees the stored outcome; the event comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(jobs.calls.length).toBeGreaterThanOrEqual(1);
    const event: JobEvent = {
      jobId: JOB,
      teamId: TEAM,
      kind: 'scrape',
      status: 'failed',
      error: { ...limited, details: { limit: 1 }, retryAfterSeconds: 1 },
      at: 2,
    };
    await bus.publish('jobEvents', event);
    await expect(waiting).resolves.toMatchObject({ error: { retryAfterSeconds: 1, details: { limit: 1 } } });
    await bus.stop();
  });
});
