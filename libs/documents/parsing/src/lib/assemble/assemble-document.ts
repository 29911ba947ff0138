import type { LayoutBlock as BlockItem, PageBlocks, PageMarkdown } from '@quarry/contracts';

import type { LayoutBlock } from '../layout/page-layout';
import type { PageSource } from '../model/page-content.types';

/** One parsed page, ready to be joined into the document. */
export interface AssembledPage {
  pageNumber: number;
  /** Page size in points: the basis of normalised boxes. */
  pointSize: { width: number; height: number } | null;
  /** Page render size in pixels as reported (points at 72 dpi for pages that were never rasterised). */
  renderSize: { width: number; height: number } | null;
  status: 'ok' | 'partial' | 'failed';
  source: PageSource;
  blocks: LayoutBlock[];
}

export interface AssembledDocument {
  markdown: string;
  pages: PageMarkdown[];
  blocks: PageBlocks[];
}

/** The separator (docs/documents.md#output) put before the content of physical page N when page markers are on. */
export function pageMarker(pageNumber: number): string {
  return `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;
}

/**
 * Joins pages into the document markdown and records, for every block, the exact `[start, end)`
 * slice of that markdown it contributed. Empty pages add nothing (so no marker either).
 */
export function assembleDocument(
  pages: readonly AssembledPage[],
  options: {
    pageMarkers: boolean;
    /** Build each page's block items (default true); else the pages are listed without items. */
    blocks?: boolean;
  },
): AssembledDocument {
  const withBlocks = options.blocks ?? true;
  let markdown = '';
  const pageMarkdown: PageMarkdown[] = [];
  const blocks: PageBlocks[] = [];
  for (const page of pages) {
    const local = renderPage(page.blocks);
    pageMarkdown.push({ pageNumber: page.pageNumber, markdown: local.markdown });
    let pageStart = -1;
    if (local.markdown) {
      if (markdown) markdown += options.pageMarkers ? pageMarker(page.pageNumber) : '\n\n';
      pageStart = markdown.length;
      markdown += local.markdown;
    }
    blocks.push({
      pageNumber: page.pageNumber,
      width: page.renderSize ? Math.round(page.renderSize.width * 100) / 100 : null,
      height: page.renderSize ? Math.round(page.renderSize.height * 100) / 100 : null,
      status: page.status,
      items: withBlocks
        ? page.blocks.map((block, index): BlockItem => {
            const offset = local.offsets[index];
            return {
              id: `p${page.pageNumber}.b${index}`,
              type: block.type,
              label: block.label,
              bbox: block.box && page.pointSize ? normalise(block.box, page.pointSize) : null,
              content: block.markdown,
              markdownSpan:
                offset !== undefined && pageStart >= 0
                  ? [pageStart + offset, pageStart + offset + block.markdown.length]
                  : null,
              readingOrder: index,
              source: page.source,
              confidence: block.confidence,
            };
          })
        : [],
    });
  }
  return { markdown, pages: pageMarkdown, blocks };
}

function renderPage(blocks: readonly LayoutBlock[]): { markdown: string; offsets: (number | undefined)[] } {
  let markdown = '';
  const offsets: (number | undefined)[] = [];
  let previous: LayoutBlock | undefined;
  for (const block of blocks) {
    if (!block.inMarkdown || !block.markdown) {
      offsets.push(undefined);
      continue;
    }
    if (markdown) markdown += previous?.listItem && block.listItem ? '\n' : '\n\n';
    offsets.push(markdown.length);
    markdown += block.markdown;
    previous = block;
  }
  return { markdown, offsets };
}

function normalise(
  box: { x0: number; y0: number; x1: number; y1: number },
  size: { width: number; height: number },
): [number, number, number, number] {
  const clamp = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
  return [
    clamp(box.x0 / size.width),
    clamp(box.y0 / size.height),
    clamp(box.x1 / size.width),
    clamp(box.y1 / size.height),
  ];
}
