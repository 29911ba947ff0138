import type { Logger } from 'pino';

import { type BusTelemetry, tracedHandle } from './bus-telemetry';
import { type BusMessage, type MessageHandler, retryDelayMs, sleep } from './message-bus';

/** Handler attempts before a message is parked on the dead-letter path (about 8 minutes of retries). */
export const MAX_HANDLER_ATTEMPTS = 40;

/**
 * Runs a handler until it succeeds, retrying with backoff while the bus is running. Returns false
 * when the message was given up (after MAX_HANDLER_ATTEMPTS, or because the bus is stopping).
 */
export async function runWithRetry<T>(
  message: Omit<BusMessage<T>, 'attempt'>,
  handler: MessageHandler<T>,
  options: {
    logger: Logger;
    isRunning: () => boolean;
    maxAttempts?: number;
    /** Each attempt runs in a CONSUMER span joined to the publisher's trace, and is counted. */
    telemetry?: BusTelemetry & { destination: string; group: string };
  },
): Promise<'done' | 'gave-up' | 'stopped'> {
  const maxAttempts = options.maxAttempts ?? MAX_HANDLER_ATTEMPTS;
  const telemetry = options.telemetry;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const delivery = { ...message, attempt };
      if (telemetry) await tracedHandle(telemetry, delivery, telemetry, () => handler(delivery));
      else await handler(delivery);
      return 'done';
    } catch (error) {
      if (!options.isRunning()) return 'stopped';
      if (attempt >= maxAttempts) {
        options.logger.error(
          { err: error, topic: message.topic, key: message.key, attempt },
          'message handler gave up',
        );
        return 'gave-up';
      }
      const delay = retryDelayMs(attempt);
      options.logger.warn(
        { err: error, topic: message.topic, key: message.key, attempt, retryInMs: delay },
        'message handler failed; retrying',
      );
      await sleep(delay);
      if (!options.isRunning()) return 'stopped';
    }
  }
}

/** A counting semaphore bounding the handlers in flight. */
export class Semaphore {
  private available: number;
  private readonly waiters: (() => void)[] = [];

  constructor(size: number) {
    this.available = size;
  }

  async acquire(): Promise<void> {
    if (this.available > 0) {
      this.available -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.available += 1;
  }
}
