import { findFormat, hasFormat, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import { decodeBody } from '@quarry/scrape/content';
import type { DocumentEnricher, EnrichmentContext } from '@quarry/scrape/engine';
import { applyRedaction, enrichmentTasks, type PageInput } from '@quarry/scrape/formats';

import { redactFragments, relocateSpans } from './document-fragments.util';
import type { ExtractionService } from './extraction.service';
import type { ExtractionContext, PiiOptions } from './extraction.types';

const TEXT_FORMATS = ['summary', 'json', 'deterministicJson', 'question', 'highlights', 'query'] as const;

function piiOptions(value: ScrapeRequest['redactPII']): PiiOptions | undefined {
  if (value === false) return undefined;
  if (value === true) return { mode: 'accurate', replaceStyle: 'tag' };
  return { mode: value.mode, entities: value.entities, replaceStyle: value.replaceStyle };
}

/** Appends a sentence to the document's warning (warnings about language-model extraction: docs/scraping.md#response-document). */
export function appendWarning(document: ScrapeDocument, warning: string | undefined): void {
  if (!warning) return;
  document.warning = document.warning ? `${document.warning} ${warning}` : warning;
}

/**
 * Derived language-model formats of a scrape (docs/llm.md#formats): onlyCleanContent first (it
 * changes the markdown the others read), then summary, json, question/answer, highlights and query,
 * then redactPII over the markdown and the derived texts. Markdown built only for these formats is
 * removed when it was not itself requested.
 */
export class LlmFormatsEnricher implements DocumentEnricher {
  readonly name = 'llm-formats';

  constructor(private readonly extraction: ExtractionService) {}

  appliesTo(request: ScrapeRequest): boolean {
    return (
      request.onlyCleanContent ||
      request.checkPromptInjection ||
      request.redactPII !== false ||
      request.formats.some((format) => (TEXT_FORMATS as readonly string[]).includes(format.type))
    );
  }

  async enrich(document: ScrapeDocument, request: ScrapeRequest, context: EnrichmentContext): Promise<void> {
    const extraction = this.extraction;
    const formats = request.formats;
    if (isRawPdf(document, request)) {
      // The markdown is the file base64-encoded: summarising, cleaning or redacting it would only corrupt it.
      appendWarning(document, rawPdfWarning(request));
      if (!hasFormat(formats, 'markdown')) delete document.markdown;
      return;
    }
    const json = findFormat(formats, 'json');
    const deterministic = findFormat(formats, 'deterministicJson');
    // Schema errors are the caller's: answer 422 before spending anything on the page.
    extraction.assertValidSchema(json?.schema);
    extraction.assertValidSchema(deterministic?.schema);
    const ctx: ExtractionContext = {
      teamId: context.teamId,
      jobId: context.jobId,
      signal: context.signal,
      deadline: context.deadline,
      tasks: enrichmentTasks(context),
    };

    let markdown = document.markdown ?? '';
    if (request.onlyCleanContent) {
      const cleaned = await extraction.clean(markdown, { zeroDataRetention: request.zeroDataRetention }, ctx);
      // Block spans must index the markdown returned (docs/documents.md#output): re-locate them, or null.
      if (cleaned.value !== markdown) relocateSpans(document, cleaned.value);
      markdown = cleaned.value;
      appendWarning(document, cleaned.warning);
    }
    const page: PageInput = {
      url: document.metadata.url,
      markdown,
      html: htmlOf(context),
      title: firstString(document.metadata.title),
    };

    if (request.checkPromptInjection || json?.checkPromptInjection || deterministic?.checkPromptInjection) {
      const checked = await extraction.checkPromptInjection(page, ctx);
      appendWarning(document, checked.warning);
    }

    const tasks: Promise<void>[] = [];
    if (hasFormat(formats, 'summary')) {
      tasks.push(
        extraction
          .summarize(page, ctx)
          .then(
            (result) => void ((document.summary = result.value), appendWarning(document, result.warning)),
          ),
      );
    }
    if (json) {
      tasks.push(
        extraction
          .extractJson(page, { schema: json.schema, prompt: json.prompt }, ctx)
          .then((result) => void ((document.json = result.value), appendWarning(document, result.warning))),
      );
    }
    if (deterministic) {
      // Always the deterministic extractor (structured data + schema field matching), never a model.
      tasks.push(
        extraction
          .extractDeterministic(page, { schema: deterministic.schema }, ctx)
          .then((result) => void ((document.json = result.value), appendWarning(document, result.warning))),
      );
    }
    const question = findFormat(formats, 'question');
    const query = findFormat(formats, 'query');
    if (question) {
      tasks.push(
        extraction
          .answer(page, question.question, ctx)
          .then((result) => void ((document.answer = result.value), appendWarning(document, result.warning))),
      );
    } else if (query) {
      tasks.push(
        extraction
          .query(page, { prompt: query.prompt, mode: query.mode }, ctx)
          .then((result) => void ((document.answer = result.value), appendWarning(document, result.warning))),
      );
    }
    const highlights = findFormat(formats, 'highlights');
    if (highlights) {
      tasks.push(
        extraction
          .highlights(page, highlights.query, ctx)
          .then(
            (result) => void ((document.highlights = result.value), appendWarning(document, result.warning)),
          ),
      );
    }
    await settleAll(tasks);

    const pii = piiOptions(request.redactPII);
    if (pii) {
      const found = await extraction.findPii(markdown, pii, ctx);
      // PDF pages and blocks carry the same text: redacted too, spans kept exact or nulled.
      if (document.pages || document.blocks) redactFragments(document, markdown, found.value, pii);
      markdown = applyRedaction(markdown, found.value, pii.replaceStyle);
      appendWarning(document, found.warning);
      for (const field of ['summary', 'answer', 'highlights'] as const) {
        const text = document[field];
        if (typeof text === 'string' && text)
          document[field] = (await extraction.redactPii(text, pii, ctx)).value;
      }
    }

    if (hasFormat(formats, 'markdown')) document.markdown = markdown;
    else delete document.markdown;
  }
}

/** `parsers: []` on a PDF (docs/scraping.md#credits): the markdown is the file base64-encoded, not text. */
function isRawPdf(document: ScrapeDocument, request: ScrapeRequest): boolean {
  return request.parsers?.length === 0 && document.metadata.contentType === 'application/pdf';
}

function rawPdfWarning(request: ScrapeRequest): string {
  const skipped = [
    ...request.formats
      .map((format) => format.type)
      .filter((type) => (TEXT_FORMATS as readonly string[]).includes(type)),
    ...(request.onlyCleanContent ? ['onlyCleanContent'] : []),
    ...(request.redactPII !== false ? ['redactPII'] : []),
  ];
  return `${[...new Set(skipped)].join(', ')} ${skipped.length > 1 ? 'were' : 'was'} not applied: with parsers: [] the PDF is returned base64-encoded, not as text; use the pdf parser to get its text.`;
}

/** Waits for every task, then rethrows the first failure (so no task is left running unobserved). */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

function htmlOf(context: EnrichmentContext): string | undefined {
  const page = context.page;
  if (!page) return undefined;
  if (!/html|xml/i.test(page.contentType ?? 'text/html')) return undefined;
  return page.text ?? decodeBody(page.body, page.contentType).text;
}

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}
