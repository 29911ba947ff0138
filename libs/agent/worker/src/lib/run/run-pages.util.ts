import type { PlannerMemory } from '@quarry/agent/domain';
import type { ScrapeDocument } from '@quarry/contracts';
import type { DocumentRepository } from '@quarry/jobs';
import type { PageInput } from '@quarry/scrape/formats';

/** The stored documents of the pages a run read successfully, as extraction input. */
export async function pagesOf(documents: DocumentRepository, memory: PlannerMemory): Promise<PageInput[]> {
  const pages: PageInput[] = [];
  for (const page of memory.pages.filter((candidate) => candidate.ok)) {
    const stored = await documents.findByJob(page.jobId);
    if (stored) pages.push(toPageInput(page.url, stored.document));
  }
  return pages;
}

export function toPageInput(url: string, document: ScrapeDocument): PageInput {
  const title = document.metadata.title;
  return {
    url: document.metadata.url ?? url,
    markdown: document.markdown ?? '',
    html: typeof document.rawHtml === 'string' ? document.rawHtml : undefined,
    title: typeof title === 'string' ? title : Array.isArray(title) ? title[0] : undefined,
  };
}
