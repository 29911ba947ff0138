import type { CDPSession, Protocol } from 'puppeteer-core';

import { ResponseTooLargeError } from '@quarry/platform/net';
import { assertPageWithinLimits, type PageLimits, PageTooLargeError } from '@quarry/scrape/content';
import { looksLikeMarkup } from '@quarry/scrape/engine';

/** A document the guard kept from Chromium because it passes a bound. */
export interface RefusedDocument {
  url: string;
  /** The error the scrape answers when this was the tab's own document. */
  error: Error;
  /** The tab's own document (as opposed to a frame inside it). */
  mainFrame: boolean;
}

export interface DocumentSizeLimits extends PageLimits {
  /** Largest decoded document body (`MAX_RESPONSE_BYTES`): a compression bomb stops here. */
  maxBytes: number;
}

/** Headers that describe the body as it came over the wire, not the decoded body handed back. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);
const READ_CHUNK = 1024 * 1024;

/**
 * Holds every markup document response (the page, a frame, a later navigation) until its body has
 * been read and counted — the same cheap count of tags and links and the same bounds
 * (`MAX_PAGE_ELEMENTS`, `MAX_PAGE_LINKS`, `MAX_RESPONSE_BYTES` decoded) the HTTP path applies before
 * building a DOM. A document within the bounds is handed to Chromium as read; one over a bound never
 * reaches the renderer (failed as blocked by the client), so Chromium never spends gigabytes parsing
 * and laying it out. The body is read as a stream, a chunk at a time, and reading stops at the byte
 * bound: a compression bomb is decoded no further than that. Runs on its own DevTools session at the
 * response stage; the request guard's interception (request stage, the page's session) comes first.
 */
export class DocumentSizeGuard {
  readonly refused: RefusedDocument[] = [];
  /** The tab's own frame, read before any navigation (the frame tree cannot be read while one is paused). */
  private mainFrameId?: string;

  constructor(
    private readonly cdp: CDPSession,
    private readonly limits: DocumentSizeLimits,
  ) {}

  async attach(): Promise<void> {
    this.mainFrameId = (await this.cdp.send('Page.getFrameTree')).frameTree.frame.id;
    this.cdp.on('Fetch.requestPaused', (event) => void this.settle(event));
    await this.cdp.send('Fetch.enable', {
      patterns: [{ resourceType: 'Document', requestStage: 'Response' }],
    });
  }

  /** The refusal of the tab's own document, if any. */
  mainDocumentRefusal(): RefusedDocument | undefined {
    return this.refused.find((entry) => entry.mainFrame);
  }

  /** Every paused response is answered (handed on, fulfilled or failed), whatever rejects on the way. */
  private async settle(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    try {
      if (!this.wantsCheck(event)) {
        await this.cdp.send('Fetch.continueResponse', { requestId: event.requestId });
        return;
      }
      const read = await this.read(event);
      if (read instanceof Error) {
        if (this.refused.length < 50)
          this.refused.push({
            url: event.request.url,
            error: read,
            mainFrame: event.frameId === this.mainFrameId,
          });
        await this.cdp.send('Fetch.failRequest', {
          requestId: event.requestId,
          errorReason: 'BlockedByClient',
        });
        return;
      }
      await this.cdp.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: event.responseStatusCode ?? 200,
        ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
        responseHeaders: (event.responseHeaders ?? []).filter(
          (header) => !WIRE_HEADERS.has(header.name.toLowerCase()),
        ),
        body: read.toString('base64'),
      });
    } catch {
      // the page or the request went away meanwhile; fail it rather than leave it paused
      await this.cdp
        .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Failed' })
        .catch(() => undefined);
    }
  }

  /** Markup with a body: not a redirect, an error without content type, or a file the browser shows. */
  private wantsCheck(event: Protocol.Fetch.RequestPausedEvent): boolean {
    if (event.responseErrorReason) return false;
    const status = event.responseStatusCode ?? 0;
    if ((status >= 300 && status < 400) || status === 204 || status === 304) return false;
    // The HTTP path's test: markup and untyped bodies are counted; documents and images pass unchecked.
    return looksLikeMarkup(headerOf(event, 'content-type'));
  }

  /** The decoded body, or the error naming the bound it passes (reading stops at the byte bound). */
  private async read(event: Protocol.Fetch.RequestPausedEvent): Promise<Buffer | Error> {
    const { stream } = await this.cdp.send('Fetch.takeResponseBodyAsStream', { requestId: event.requestId });
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for (;;) {
        const chunk = await this.cdp.send('IO.read', { handle: stream, size: READ_CHUNK });
        const bytes = Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8');
        total += bytes.length;
        if (total > this.limits.maxBytes)
          return new ResponseTooLargeError(this.limits.maxBytes, headerOf(event, 'content-encoding'));
        chunks.push(bytes);
        if (chunk.eof) break;
      }
    } finally {
      await this.cdp.send('IO.close', { handle: stream }).catch(() => undefined);
    }
    const body = Buffer.concat(chunks, total);
    try {
      assertPageWithinLimits(body, this.limits);
    } catch (error) {
      if (error instanceof PageTooLargeError) return error;
      throw error;
    }
    return body;
  }
}

function headerOf(event: Protocol.Fetch.RequestPausedEvent, name: string): string | undefined {
  return event.responseHeaders?.find((header) => header.name.toLowerCase() === name)?.value;
}
