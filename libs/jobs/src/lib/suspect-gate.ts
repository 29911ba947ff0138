/**
 * Makes a process death attributable. A unit of work whose earlier run ended with its process
 * dying is a suspect: it may be the poison, or only have been in flight beside the poison. A
 * suspect runs alone in its process — it waits for the work in flight to finish and holds new work
 * back until it is done — so if the process dies again, the suspect is the cause and may be
 * quarantined, while work that merely shared a death is never counted twice. Outside recovery
 * (no suspects) work runs concurrently, unhindered. First come, first served: a waiting suspect
 * is not starved by work arriving after it.
 */
export class SuspectGate {
  private shared = 0;
  private exclusive = false;
  private readonly queue: { suspect: boolean; enter: () => void }[] = [];

  async run<T>(suspect: boolean, work: () => Promise<T>): Promise<T> {
    await this.enter(suspect);
    try {
      return await work();
    } finally {
      this.leave(suspect);
    }
  }

  /** Work in the gate now (tests, diagnostics). */
  get running(): { shared: number; exclusive: boolean; waiting: number } {
    return { shared: this.shared, exclusive: this.exclusive, waiting: this.queue.length };
  }

  private enter(suspect: boolean): Promise<void> {
    if (this.queue.length === 0 && this.fits(suspect)) {
      this.admit(suspect);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ suspect, enter: resolve }));
  }

  private fits(suspect: boolean): boolean {
    return suspect ? !this.exclusive && this.shared === 0 : !this.exclusive;
  }

  private admit(suspect: boolean): void {
    if (suspect) this.exclusive = true;
    else this.shared += 1;
  }

  private leave(suspect: boolean): void {
    if (suspect) this.exclusive = false;
    else this.shared -= 1;
    while (this.queue.length > 0 && this.fits(this.queue[0].suspect)) {
      const next = this.queue.shift() as { suspect: boolean; enter: () => void };
      this.admit(next.suspect);
      next.enter();
    }
  }
}
