import { type ChangeTrackingResult, findFormat, type ScrapeRequest, urlKey } from '@quarry/contracts';
import { gitDiff, hasChanged } from '@quarry/scrape/formats';
import type { ChangeSnapshotRepository } from '@quarry/scrape/state';

/**
 * Time the diff of a cached copy may take: it runs on the API's event loop (the scrape's own diff
 * runs in a content worker, with DIFF_BUDGET_MS), so past this the diff is one hunk replacing every
 * line, still a valid patch.
 */
export const CACHED_DIFF_BUDGET_MS = 100;

/**
 * A cache-only request (`lockdown`, `minAge`) that asks for `changeTracking` is looked up without
 * that format: change-tracking results are never cached, and the other formats' content does not
 * depend on it.
 */
export function cacheLookupRequest(request: ScrapeRequest): ScrapeRequest {
  if (!findFormat(request.formats, 'changeTracking')) return request;
  if (!request.lockdown && request.minAge === undefined) return request;
  return { ...request, formats: request.formats.filter((format) => format.type !== 'changeTracking') };
}

/**
 * Change tracking of a cached copy (docs/scraping.md#formats): its markdown compared with the team's last stored
 * scrape of the URL and tag. Nothing is stored — the cached copy is not a new sighting of the page,
 * and lockdown is zero data retention (as change tracking with `zeroDataRetention`). `json` mode
 * compares values read from a fresh page and is null here, with a warning.
 */
export async function trackCachedChanges(
  snapshots: ChangeSnapshotRepository,
  teamId: string,
  request: ScrapeRequest,
  markdown: string,
): Promise<{ changeTracking: ChangeTrackingResult; warning?: string } | undefined> {
  const format = findFormat(request.formats, 'changeTracking');
  if (!format) return undefined;
  const previous = await snapshots.find({ teamId, urlKey: urlKey(request.url), tag: format.tag });
  const comparable = previous !== undefined && !previous.removed;
  const changeStatus = !comparable ? 'new' : hasChanged(previous.markdown, markdown) ? 'changed' : 'same';
  const changeTracking: ChangeTrackingResult = {
    previousScrapeAt: previous?.scrapedAt.toISOString() ?? null,
    changeStatus,
    visibility: 'visible',
  };
  if (format.modes.includes('git-diff'))
    changeTracking.diff =
      changeStatus === 'changed' && previous
        ? gitDiff(previous.markdown, markdown, undefined, CACHED_DIFF_BUDGET_MS)
        : null;
  if (!format.modes.includes('json')) return { changeTracking };
  changeTracking.json = null;
  return {
    changeTracking,
    warning:
      'changeTracking json mode compares values read from a freshly fetched page; a cached copy has none.',
  };
}
