interface Pending<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs many callers' small statements as one: the inputs submitted while the previous statement was
 * running go together in the next (`run` gets them all and returns one output per input, in order).
 * One statement in flight at a time by default (two measured no better on the cache-hit load, with
 * smaller batches): an idle process runs at once (one event-loop turn of delay, so the requests read
 * in the same turn join), a busy one runs one statement per round trip instead of one per request,
 * the next starting as soon as the previous one ends.
 * `run` must be atomic (one statement): when a batch of several fails, each input is run again
 * alone, so one bad input fails only its own caller.
 */
export class GroupedStatement<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch = 128,
    private readonly maxInFlight = 1,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    while (this.running < this.maxInFlight && this.queue.length > 0) {
      this.running += 1;
      void this.runBatch(this.queue.splice(0, this.maxBatch)).finally(() => {
        this.running -= 1;
        // Inputs that arrived while the statement ran go at once: waiting for the next event-loop
        // turn would leave the database idle while this process handles a turn's worth of requests.
        if (this.queue.length > 0 && !this.scheduled) this.start();
      });
    }
  }

  private async runBatch(batch: Pending<In, Out>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((entry) => entry.input));
      batch.forEach((entry, index) => entry.resolve(outputs[index]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      for (const entry of batch) {
        try {
          entry.resolve((await this.run([entry.input]))[0]);
        } catch (single) {
          entry.reject(single);
        }
      }
    }
  }
}
