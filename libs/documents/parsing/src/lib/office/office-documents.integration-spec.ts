import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import JSZip from 'jszip';

import { AppError, type DocumentKind, documentKindOf } from '@quarry/contracts';
import {
  characterErrorRate,
  docxFixture,
  type OfficeFixture,
  officeFixtures,
  textImagePng,
} from '@quarry/documents/fixtures';

import { closeDocumentToolkit, type DocumentToolkit } from '../document-toolkit';
import { type DocumentParseRequest, parseDocument } from '../parse-document';
import { testToolkit } from '../test-toolkit.util';

// Office documents and images converted in real parse worker threads (and Tesseract for images).
jest.setTimeout(120_000);

function request(
  kind: DocumentKind,
  data: Buffer,
  filename: string,
  formats: DocumentParseRequest['content']['formats'] = ['markdown'],
): DocumentParseRequest {
  return {
    kind,
    data,
    filename,
    pdf: { mode: 'auto', pages: false, blocks: false, pageMarkers: false },
    content: { formats, onlyMainContent: true, removeBase64Images: true },
    budget: { deadline: Date.now() + 60_000 },
  };
}

describe('office documents and images', () => {
  let toolkit: DocumentToolkit;
  let fixtures: OfficeFixture[];

  beforeAll(async () => {
    toolkit = await testToolkit({ sofficeCommand: undefined });
    fixtures = await officeFixtures();
  });
  afterAll(() => closeDocumentToolkit(toolkit));

  it.each([
    'summary.docx',
    'sales.xlsx',
    'people.csv',
    'notes.rtf',
    'guide.odt',
    'inventory.ods',
    'plan.odp',
    'roadmap.pptx',
    'tiny.epub',
    'article.html',
  ])('converts %s to the expected markdown exactly', async (filename) => {
    const fixture = fixtures.find((candidate) => candidate.filename === filename) as OfficeFixture;
    const kind = documentKindOf(fixture.filename, fixture.data) as DocumentKind;
    const output = await parseDocument(toolkit, request(kind, fixture.data, fixture.filename));
    expect(output.markdown).toBe(fixture.markdown);
    expect(output.pdfPages).toBeUndefined();
  });

  it('reads document properties into metadata', async () => {
    const docx = await docxFixture();
    const output = await parseDocument(
      toolkit,
      request('docx', docx.data, docx.filename, ['markdown', 'html', 'links']),
    );
    expect(output.metadata).toMatchObject({ title: 'Quarterly Summary', author: 'Quarry Fixtures' });
    expect(output.html).toContain('<h1>Quarterly Summary</h1>');
    expect(output.links).toEqual([]);
  });

  it('OCRs an uploaded image', async () => {
    const lines = ['Invoice 2041', 'Total due: 310 EUR', 'Thank you for your order'];
    const output = await parseDocument(toolkit, request('image', await textImagePng(lines), 'scan.png'));
    expect(characterErrorRate(lines.join('\n'), output.markdown.replace(/^#+ /gm, ''))).toBeLessThan(0.05);
  });

  it.each([
    ['docx', 'broken.docx', Buffer.from('PK\u0003\u0004 not really a zip')],
    ['xlsx', 'broken.xlsx', Buffer.from('not a workbook')],
    ['epub', 'broken.epub', Buffer.from('PK')],
    ['rtf', 'broken.rtf', Buffer.from('plain text, not rtf')],
    ['image', 'broken.png', Buffer.from('not an image')],
  ] as const)('answers a damaged %s with DOCUMENT_INVALID', async (kind, filename, data) => {
    const error = await parseDocument(toolkit, request(kind, data, filename)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('DOCUMENT_INVALID');
  });

  it('refuses XML entity declarations inside office packages (no entity expansion)', async () => {
    const zip = await JSZip.loadAsync((await docxFixture()).data);
    zip.file(
      'docProps/core.xml',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><cp:coreProperties xmlns:cp="x" xmlns:dc="y"><dc:title>&b;</dc:title></cp:coreProperties>',
    );
    const data = await zip.generateAsync({ type: 'nodebuffer' });
    const error = await parseDocument(toolkit, request('docx', data, 'bomb.docx')).catch(
      (caught: unknown) => caught,
    );
    expect((error as AppError).code).toBe('DOCUMENT_INVALID');
  });

  it('explains that legacy binary Office files need LibreOffice when it is not configured', async () => {
    const error = await parseDocument(
      toolkit,
      request('doc', Buffer.from('\u00d0\u00cf\u0011\u00e0 legacy'), 'old.doc'),
    ).catch((caught: unknown) => caught);
    expect((error as AppError).code).toBe('PARSE_UNSUPPORTED_FILE_TYPE');
    expect((error as AppError).message).toMatch(/save the file as \.docx/);
  });
});

describe('legacy Office files through LibreOffice', () => {
  const soffice = spawnSync('soffice', ['--version'], { timeout: 30_000 }).status === 0;
  const maybe = soffice ? it : it.skip;
  let toolkit: DocumentToolkit;

  beforeAll(async () => {
    if (soffice)
      toolkit = await testToolkit({ sofficeCommand: 'soffice', settings: { openTimeoutMs: 120_000 } });
  });
  afterAll(async () => {
    if (toolkit) await closeDocumentToolkit(toolkit);
  });

  maybe('converts a .doc (made from the DOCX fixture by LibreOffice) to the same markdown', async () => {
    const docx = await docxFixture();
    const dir = mkdtempSync(join(tmpdir(), 'quarry-doc-'));
    try {
      writeFileSync(join(dir, 'summary.docx'), docx.data);
      spawnSync(
        'soffice',
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          'doc',
          '--outdir',
          dir,
          join(dir, 'summary.docx'),
        ],
        { timeout: 120_000 },
      );
      const doc = readFileSync(join(dir, 'summary.doc'));
      const output = await parseDocument(toolkit, {
        ...request('doc', doc, 'summary.doc'),
        budget: { deadline: Date.now() + 120_000 },
      });
      expect(output.markdown).toContain('# Quarterly Summary');
      expect(output.markdown).toContain('Revenue grew **twelve percent** this quarter.');
      expect(output.markdown).toContain('1. Ship OCR\n2. Measure speed');
      // LibreOffice's own DOCX import flattens the docx package's percentage-width table into one
      // paragraph before writing the .doc, so only its text survives the round trip.
      expect(output.markdown).toMatch(/Metric\s*Value\s*Pages\s*1200/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
