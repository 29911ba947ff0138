import { AppError, type DocumentKind } from '@quarry/contracts';
import { archiveBomb, type BombKind, docxFixture } from '@quarry/documents/fixtures';
import { withRssSampling } from '@quarry/testing';

import { closeDocumentToolkit, type DocumentToolkit } from '../document-toolkit';
import { type DocumentParseRequest, parseDocument } from '../parse-document';
import { testToolkit } from '../test-toolkit.util';
import { DEFAULT_DOCUMENT_LIMITS } from './office-output.types';

// Archive bombs converted in real parse worker threads: counted while inflating, never trusted.
jest.setTimeout(120_000);

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

function request(kind: DocumentKind, data: Buffer): DocumentParseRequest {
  return {
    kind,
    data,
    filename: `bomb.${kind}`,
    pdf: { mode: 'auto', pages: false, blocks: false, pageMarkers: false },
    content: { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true },
    budget: { deadline: Date.now() + 60_000 },
  };
}

function refusal(outcome: PromiseSettledResult<unknown>): AppError {
  expect(outcome.status).toBe('rejected');
  const error = (outcome as PromiseRejectedResult).reason as AppError;
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', status: 422 });
  return error;
}

describe('archive bombs under the default limits (64 MiB per entry, 256 MiB in all, 32 MiB of output)', () => {
  let toolkit: DocumentToolkit;

  beforeAll(async () => {
    toolkit = await testToolkit({ sofficeCommand: undefined, workerMemoryMb: 1_024 });
  });
  afterAll(() => closeDocumentToolkit(toolkit));

  it('refuses a 190 MiB word/document.xml in a small DOCX, declared honestly, with memory bounded', async () => {
    const bomb = archiveBomb('docx', { bytes: 190 * MIB });
    expect(bomb.data.length).toBeLessThan(1024 * 1024);
    const { outcome, growth, ms } = await withRssSampling(() =>
      parseDocument(toolkit, request('docx', bomb.data)),
    );
    expect(refusal(outcome).message).toMatch(
      /^The archive entry word\/document\.xml expands beyond DOC_MAX_ENTRY_BYTES \(67108864 bytes, counted while inflating; it declares 199\d{6} bytes\)$/,
    );
    expect(growth).toBeLessThan(150 * MIB);
    expect(ms).toBeLessThan(20_000);
  });

  it('refuses a DOCX declaring 2 GiB without inflating more than the limit', async () => {
    const bomb = archiveBomb('docx', { bytes: 2 * GIB });
    const { outcome, growth, ms } = await withRssSampling(() =>
      parseDocument(toolkit, request('docx', bomb.data)),
    );
    expect(refusal(outcome).message).toMatch(
      /word\/document\.xml expands beyond DOC_MAX_ENTRY_BYTES .*declares 214\d{7} bytes/,
    );
    expect(growth).toBeLessThan(150 * MIB);
    expect(ms).toBeLessThan(20_000);
  });

  it('refuses a bomb whose headers lie about its size', async () => {
    const bomb = archiveBomb('docx', { bytes: 100 * MIB, declaredSize: 1_024 });
    const { outcome, growth } = await withRssSampling(() =>
      parseDocument(toolkit, request('docx', bomb.data)),
    );
    expect(refusal(outcome).message).toMatch(/expands beyond DOC_MAX_ENTRY_BYTES .*it declares 1024 bytes/);
    expect(growth).toBeLessThan(150 * MIB);
  });

  it('keeps the parse thread: a normal document converts right after', async () => {
    const fixture = await docxFixture();
    await expect(parseDocument(toolkit, request('docx', fixture.data))).resolves.toMatchObject({
      markdown: fixture.markdown,
    });
  });
});

describe('archive bombs of every ZIP-based kind, under small limits', () => {
  const limits = { maxEntryBytes: 8 * MIB, maxInflatedBytes: 20 * MIB, maxOutputBytes: 1 * MIB };
  let toolkit: DocumentToolkit;

  beforeAll(async () => {
    toolkit = await testToolkit({ sofficeCommand: undefined, settings: { limits } });
  });
  afterAll(() => closeDocumentToolkit(toolkit));

  const kinds: BombKind[] = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'];

  it.each(kinds)('%s: an entry past DOC_MAX_ENTRY_BYTES, honest or lying', async (kind) => {
    for (const declaredSize of [undefined, 100]) {
      const bomb = archiveBomb(kind, { bytes: 64 * MIB, declaredSize });
      const { outcome } = await withRssSampling(() => parseDocument(toolkit, request(kind, bomb.data)));
      expect(refusal(outcome).message).toMatch(/expands beyond DOC_MAX_ENTRY_BYTES \(8388608 bytes/);
    }
  });

  it.each(kinds)(
    '%s: entries each under the entry limit, past DOC_MAX_INFLATED_BYTES together',
    async (kind) => {
      const bomb = archiveBomb(kind, { bytes: 6 * MIB, parts: 4 });
      const { outcome } = await withRssSampling(() => parseDocument(toolkit, request(kind, bomb.data)));
      expect(refusal(outcome).message).toMatch(
        /^The archive's entries expand beyond DOC_MAX_INFLATED_BYTES \(20971520 bytes in total/,
      );
    },
  );

  it.each(['docx', 'odt', 'epub'] as BombKind[])(
    '%s: within the archive limits, but converting past DOC_MAX_OUTPUT_BYTES',
    async (kind) => {
      const bomb = archiveBomb(kind, { bytes: 4 * MIB });
      const { outcome } = await withRssSampling(() => parseDocument(toolkit, request(kind, bomb.data)));
      expect(refusal(outcome).message).toMatch(
        /^The converted document \(\d+ bytes of markdown\/HTML\) exceeds DOC_MAX_OUTPUT_BYTES \(1048576 bytes\)$/,
      );
    },
  );

  it('converts a document within every limit', async () => {
    const bomb = archiveBomb('docx', { bytes: 1 * MIB });
    const output = await parseDocument(toolkit, request('docx', bomb.data));
    expect(output.markdown).toMatch(/^All work and no play makes a bomb out of a document\./);
    expect(Buffer.byteLength(output.markdown)).toBeLessThan(DEFAULT_DOCUMENT_LIMITS.maxOutputBytes);
  });
});
