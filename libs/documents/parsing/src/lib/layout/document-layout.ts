import { type AssembledDocument, assembleDocument, type AssembledPage } from '../assemble/assemble-document';
import type { PageContent, PageSource } from '../model/page-content.types';
import { detectFurniture } from './furniture';
import { computeLayoutStats, HEADING_RATIO, type LayoutStats, OCR_HEADING_RATIO } from './layout-stats';
import { layoutPage, type TitleState } from './page-layout';
import { buildLines, type Line, rotatedLines } from './text-lines';

/** A page as extracted (native text or OCR), or without content when it failed. */
export interface ExtractedPage {
  pageNumber: number;
  content?: PageContent;
  source: PageSource;
  status: 'ok' | 'partial' | 'failed';
  /** Reported render size in pixels (null for pages that never loaded). */
  renderSize: { width: number; height: number } | null;
  /** The content's lines when already built (`lineUp`), e.g. while the next pages were being read. */
  lined?: PageLines;
}

/** A page's text lines: horizontal ones, and one per rotated item. */
export interface PageLines {
  lines: Line[];
  rotated: Line[];
}

/** The first, page-local step of the layout; the rest needs every page. */
export function lineUp(content: PageContent): PageLines {
  return { lines: buildLines(content.items), rotated: rotatedLines(content.items) };
}

export interface DocumentLayout extends AssembledDocument {
  /** Text of the block recognised as the document title, if any. */
  title?: string;
}

/**
 * Lays out a whole document: lines per page, running headers/footers across pages, typography
 * per text source (OCR sizes are estimates, so they are not mixed with native font sizes), then
 * blocks page by page and the markdown with its spans.
 */
export function layoutDocument(
  pages: readonly ExtractedPage[],
  options: {
    pageMarkers: boolean;
    /** Block items in `blocks` (default true); without them each page is listed with no items. */
    blocks?: boolean;
  },
): DocumentLayout {
  const lined = pages.map((page) => {
    const { lines, rotated } = page.content
      ? (page.lined ?? lineUp(page.content))
      : { lines: [], rotated: [] };
    return { page, lines, rotated };
  });
  const overall = computeLayoutStats(lined.flatMap(({ lines }) => lines));
  const furniture = detectFurniture(
    lined.map(({ page, lines }) => ({ height: page.content?.height ?? 0, lines })),
    overall.bodySize,
  );
  const body = (lines: Line[]) => lines.filter((line) => !furniture.has(line));
  const stats = new Map<PageSource, LayoutStats>();
  for (const source of ['native_text', 'layout_ocr'] as const) {
    const ratio = source === 'layout_ocr' ? OCR_HEADING_RATIO : HEADING_RATIO;
    stats.set(
      source,
      computeLayoutStats(
        lined.filter(({ page }) => page.source === source).flatMap(({ lines }) => body(lines)),
        ratio,
      ),
    );
  }
  const title: TitleState = { used: false };
  let titleText: string | undefined;
  const assembled: AssembledPage[] = lined.map(({ page, lines, rotated }) => {
    const blocks = page.content
      ? layoutPage(
          {
            content: page.content,
            lines: body(lines),
            furniture: lines
              .filter((line) => furniture.has(line))
              .map((line) => ({
                line,
                type: furniture.get(line) as NonNullable<ReturnType<typeof furniture.get>>,
              })),
            rotated,
            stats: stats.get(page.source) as LayoutStats,
            source: page.source,
          },
          title,
        )
      : [];
    // Only the first page with text may hold the document title.
    if (lines.length) title.used = true;
    const titleBlock = blocks.find((block) => block.type === 'title');
    if (titleBlock && titleText === undefined) titleText = titleBlock.markdown.replace(/^#\s+/, '');
    return {
      pageNumber: page.pageNumber,
      pointSize: page.content ? { width: page.content.width, height: page.content.height } : null,
      renderSize: page.renderSize,
      status: page.status,
      source: page.source,
      blocks,
    };
  });
  return { ...assembleDocument(assembled, options), ...(titleText ? { title: titleText } : {}) };
}
