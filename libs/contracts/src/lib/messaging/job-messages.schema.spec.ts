import { AppError } from '../errors/app-error';
import { appErrorOf, type JobError, jobErrorOf, jobEventSchema } from './job-messages.schema';

describe('job errors over the bus', () => {
  it('carries code, message, details and Retry-After from the worker to the gateway', () => {
    const thrown = new AppError('CONCURRENCY_LIMITED', {
      retryAfterSeconds: 3,
      details: { limit: 2, waitedMs: 1_800 },
    });
    const event = {
      jobId: '00000000-0000-4000-8000-000000000001',
      teamId: '00000000-0000-4000-8000-000000000002',
      kind: 'scrape',
      status: 'failed',
      error: jobErrorOf(thrown),
      at: 1,
    };
    const parsed = jobEventSchema.parse(JSON.parse(JSON.stringify(event)));
    const answered = appErrorOf(parsed.error as JobError);
    expect(answered).toMatchObject({
      code: 'CONCURRENCY_LIMITED',
      status: 429,
      message: 'Concurrency limit reached',
      details: { limit: 2, waitedMs: 1_800 },
      retryAfterSeconds: 3,
    });
  });

  it('leaves out what the error does not have, and answers UNKNOWN_ERROR without an error', () => {
    expect(jobErrorOf(new AppError('SCRAPE_TIMEOUT'))).toEqual({
      code: 'SCRAPE_TIMEOUT',
      message: 'Request Timeout',
    });
    expect(appErrorOf(undefined)).toMatchObject({
      code: 'UNKNOWN_ERROR',
      status: 500,
      retryAfterSeconds: undefined,
    });
  });
});
