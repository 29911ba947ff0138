import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runProcess } from '../process/run-process';
import { pngSize, type RenderedPage } from './page-renderer';

/** Poppler's `pdftoppm`: renders one page of a PDF file to a grey PNG in a child process. */
export class PdftoppmRenderer {
  readonly name = 'pdftoppm';

  constructor(private readonly command: string) {}

  static async available(command: string): Promise<boolean> {
    try {
      await runProcess(command, ['-v'], { timeoutMs: 10_000, maxOutputBytes: 100_000 });
      return true;
    } catch {
      return false;
    }
  }

  /** Renders at `dpi`, or with the long side scaled to `scaleTo` pixels when the page size is unknown. */
  async render(
    file: string,
    pageNumber: number,
    size: { dpi: number; scaleTo?: number },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<RenderedPage> {
    const dir = await mkdtemp(join(tmpdir(), 'quarry-render-'));
    try {
      const prefix = join(dir, 'page');
      const page = String(pageNumber);
      const resolution = size.scaleTo ? ['-scale-to', String(size.scaleTo)] : ['-r', String(size.dpi)];
      await runProcess(
        this.command,
        ['-f', page, '-l', page, ...resolution, '-gray', '-png', '-singlefile', file, prefix],
        {
          timeoutMs,
          maxOutputBytes: 1_000_000,
          signal,
        },
      );
      const png = await readFile(`${prefix}.png`);
      return { png, ...pngSize(png), dpi: size.dpi };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
