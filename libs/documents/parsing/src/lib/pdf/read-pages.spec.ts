import type { PageContent } from '../model/page-content.types';
import { WorkerCrashedError, WorkerTimeoutError } from '../worker/parse-worker-pool';
import type { PageOutcome } from './page-content.codec';
import type { PdfSession } from './pdf-session';
import { readPages } from './read-pages';

type PagesRequest = Parameters<PdfSession['pages']>[0];

const content = (pageNumber: number): PageContent => ({
  pageNumber,
  width: 612,
  height: 792,
  items: [],
  images: [],
  rules: [],
  truncated: false,
});

/**
 * A session whose thread reads pages in batches of `batch`; `hang` pages time out and `crash` pages
 * kill the thread (each entry once), losing the pages of the batch not yet sent.
 */
function fakeSession(options: { batch: number; hang?: number[]; crash?: number[]; broken?: number[] }) {
  const requests: PagesRequest[] = [];
  const failed: number[] = [];
  const hang = [...(options.hang ?? [])];
  const crash = [...(options.crash ?? [])];
  const session = {
    stop: jest.fn(),
    pages: async (request: PagesRequest, _budget: () => number, onPages: (pages: PageOutcome[]) => void) => {
      requests.push(request);
      let held: PageOutcome[] = [];
      for (let page = request.from; page <= request.to; page += 1) {
        if (request.skip.includes(page)) continue;
        if (hang.includes(page)) {
          hang.splice(hang.indexOf(page), 1);
          failed.push(page);
          throw new WorkerTimeoutError('pdf.pages', 1_000, page);
        }
        if (crash.includes(page)) {
          crash.splice(crash.indexOf(page), 1);
          failed.push(page);
          throw new WorkerCrashedError('Parse worker was killed by SIGSEGV', false, page);
        }
        held.push(options.broken?.includes(page) ? { pageNumber: page, error: 'Bad XRef' } : content(page));
        if (held.length === options.batch) {
          onPages(held);
          held = [];
        }
      }
      onPages(held);
    },
  };
  return { session: session as unknown as PdfSession, requests, failed };
}

async function read(session: PdfSession, count: number, timeLeft = () => 10_000) {
  const read: number[] = [];
  const unread: [number, boolean][] = [];
  const left = await readPages(
    session,
    { count, graphics: false, pageTimeoutMs: 1_000, timeLeft },
    { read: (page) => read.push(page.pageNumber), unread: (page, timedOut) => unread.push([page, timedOut]) },
  );
  return { read, unread, left };
}

describe('readPages (pages streamed from the parse thread)', () => {
  it('reads every page in one call, batch by batch, pages pdf.js cannot read reported as such', async () => {
    const { session, requests } = fakeSession({ batch: 3, broken: [4] });
    expect(await read(session, 8)).toEqual({
      read: [1, 2, 3, 5, 6, 7, 8],
      unread: [[4, false]],
      left: [],
    });
    expect(requests).toHaveLength(1);
  });

  it('gives up the page the mark names when it times out, and reads the lost batch before it again', async () => {
    // Pages 4 and 5 were read but still held when page 6 hung: they come again, page 6 is skipped.
    const { session, requests } = fakeSession({ batch: 3, hang: [6, 6] });
    const result = await read(session, 9);
    expect(result.unread).toEqual([[6, true]]);
    expect(result.read).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    expect(requests.map(({ from, skip }) => ({ from, skip }))).toEqual([
      { from: 1, skip: [] },
      { from: 4, skip: [6] },
    ]);
  });

  it('gives a page that killed the thread one more try', async () => {
    const once = fakeSession({ batch: 2, crash: [3] });
    expect(await read(once.session, 4)).toEqual({ read: [1, 2, 3, 4], unread: [], left: [] });
    const twice = fakeSession({ batch: 2, crash: [3, 3] });
    expect(await read(twice.session, 4)).toEqual({ read: [1, 2, 4], unread: [[3, false]], left: [] });
  });

  it('leaves the pages it had no time for', async () => {
    const { session, failed } = fakeSession({ batch: 1, hang: [2] });
    // Time runs out with the page that hung.
    const result = await read(session, 4, () => (failed.length ? 0 : 5_000));
    expect(result.read).toEqual([1]);
    expect(result.unread).toEqual([[2, true]]);
    expect(result.left).toEqual([3, 4]);
  });
});
