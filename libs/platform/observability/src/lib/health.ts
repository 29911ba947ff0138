/** A readiness probe of one dependency: resolves when healthy, throws (or rejects) when not. */
export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; error?: string; ms: number }>;
}

/** Collects the readiness checks of the process's dependencies (database, bus, browser…). */
export class HealthRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private started = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** Marks the process as having finished its start-up (readiness is false before). */
  markStarted(): void {
    this.started = true;
  }

  async report(timeoutMs = 2_000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        const startedAt = Date.now();
        try {
          await withTimeout(check(), timeoutMs);
          return [name, { ok: true, ms: Date.now() - startedAt }] as const;
        } catch (error) {
          return [
            name,
            {
              ok: false,
              error: error instanceof Error ? error.message : String(error),
              ms: Date.now() - startedAt,
            },
          ] as const;
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    return { ready: this.started && entries.every(([, result]) => result.ok), checks };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
