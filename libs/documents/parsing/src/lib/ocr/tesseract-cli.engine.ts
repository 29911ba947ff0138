import { ProcessTimeoutError, runProcess } from '../process/run-process';
import { type OcrEngine, type OcrOptions, type OcrResult, OcrTimeoutError } from './ocr-engine';
import { parseTesseractTsv } from './tesseract-tsv';

/**
 * Debian's `tesseract` (5.x) as a child process per page. One OpenMP thread per process: on a small
 * machine several single-threaded pages beat one page fighting over cores (docs/documents.md).
 */
export class TesseractCliEngine implements OcrEngine {
  readonly name = 'tesseract-cli';

  constructor(
    private readonly command: string,
    private readonly languages: string,
  ) {}

  /** True when the binary runs and has the requested language data. */
  static async available(command: string, languages: string): Promise<boolean> {
    try {
      const output = (
        await runProcess(command, ['--list-langs'], { timeoutMs: 10_000, maxOutputBytes: 1_000_000 })
      ).toString();
      const installed = new Set(output.split('\n').map((line) => line.trim()));
      return languages.split('+').every((language) => installed.has(language));
    } catch {
      return false;
    }
  }

  async recognize(image: Buffer, options: OcrOptions): Promise<OcrResult> {
    const args = [
      'stdin',
      'stdout',
      '-l',
      this.languages,
      '--psm',
      '3',
      ...(options.dpi ? ['--dpi', String(options.dpi)] : []),
      'tsv',
    ];
    try {
      const output = await runProcess(this.command, args, {
        input: image,
        timeoutMs: options.timeoutMs,
        maxOutputBytes: 20_000_000,
        extraEnv: { OMP_THREAD_LIMIT: '1' },
        signal: options.signal,
      });
      return parseTesseractTsv(output.toString('utf8'));
    } catch (error) {
      if (error instanceof ProcessTimeoutError) throw new OcrTimeoutError(options.timeoutMs);
      throw error;
    }
  }

  async close(): Promise<void> {
    // One process per page: nothing to release.
  }
}
