import { dirname, join } from 'node:path';

import type Tesseract from 'tesseract.js';

import { type OcrEngine, type OcrOptions, type OcrResult, OcrTimeoutError } from './ocr-engine';
import { parseTesseractTsv } from './tesseract-tsv';

// Taken from the runtime so that bundlers leave it alone: packages resolve from node_modules at run time.
const requireHere = process.getBuiltinModule('node:module').createRequire(join(__dirname, 'noop.js'));

/**
 * tesseract.js (WebAssembly) for machines without the Tesseract binary. Fully offline: the
 * language data comes from the `@tesseract.js-data/<lang>` npm packages, nothing is cached to disk.
 * Pages are recognised one at a time; a page over its budget terminates the worker.
 */
export class TesseractJsEngine implements OcrEngine {
  readonly name = 'tesseract-js';
  private worker?: Promise<Tesseract.Worker>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly languages: string) {}

  recognize(image: Buffer, options: OcrOptions): Promise<OcrResult> {
    const run = this.queue.then(() => this.run(image, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await (await worker?.catch(() => undefined))?.terminate().catch(() => undefined);
  }

  private async run(image: Buffer, options: OcrOptions): Promise<OcrResult> {
    if (options.signal?.aborted) throw new OcrTimeoutError(options.timeoutMs);
    const worker = await this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrTimeoutError(options.timeoutMs)), options.timeoutMs);
    });
    try {
      if (options.dpi) await worker.setParameters({ user_defined_dpi: String(options.dpi) });
      const result = await Promise.race([
        worker.recognize(image, {}, { tsv: true, text: false, blocks: false }),
        timeout,
      ]);
      return parseTesseractTsv(result.data.tsv ?? '');
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private start(): Promise<Tesseract.Worker> {
    this.worker ??= (async () => {
      const tesseract = requireHere('tesseract.js') as typeof Tesseract;
      // One language directory per worker: the first language's npm data package.
      const language = this.languages.split('+')[0];
      return tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
        langPath: join(
          dirname(requireHere.resolve(`@tesseract.js-data/${language}/package.json`)),
          '4.0.0_best_int',
        ),
        gzip: true,
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: () => undefined,
      });
    })();
    return this.worker;
  }
}
