import type { DomElement } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';
import {
  flagBoilerplateSections,
  flagInlinePromos,
  flagSecondaryTeasers,
  unflagContentHolders,
} from './chrome-flags.util';
import { computeStats, type StatsMap } from './content-stats.util';
import { removeBoilerplateLines } from './remove-boilerplate-lines.util';
import { collapsedText, removeDuplicateBlocks } from './remove-duplicates.util';
import { removeHidden } from './remove-hidden.util';
import { removeSignupBlocks } from './remove-signups.util';
import { removeWidgets } from './remove-widgets.util';
import { prunableElements, selectContainer } from './select-container.util';

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

/** Whether the container already has a heading saying what the title says. */
function holdsHeading(container: DomElement, title: DomElement): boolean {
  const text = collapsedText(title.textContent);
  return queryAll(container, HEADINGS).some((h) => collapsedText(h.textContent) === text);
}

/** Less than this is no main content: the caller falls back to the whole cleaned page. */
const MIN_MAIN_CHARS = 25;

/** Removes what a reader never sees or cannot read, then computes text statistics and chrome flags. */
export function analyzeContent(root: DomElement): StatsMap {
  removeHidden(root);
  removeSignupBlocks(root);
  removeWidgets(root);
  const stats = computeStats(root);
  flagSecondaryTeasers(root, stats);
  flagBoilerplateSections(root, stats);
  flagInlinePromos(root, stats);
  unflagContentHolders(root, stats);
  return stats;
}

/**
 * Narrows a cleaned page to its main content, in place: hidden elements, widgets and page chrome go,
 * the container that holds most of the remaining text is kept, link-dense blocks and repeated blocks
 * inside it are pruned. Returns undefined (the page otherwise untouched) when that would leave next
 * to nothing.
 */
export function extractMainContent(root: DomElement): DomElement | undefined {
  const stats = analyzeContent(root);
  const { container, lead, title, deck } = selectContainer(root, stats);
  const text = stats.get(container)?.text ?? 0;
  const prunable = prunableElements(container, stats);
  const kept = text - prunable.reduce((sum, el) => sum + (stats.get(el)?.text ?? 0), 0);
  if (kept < MIN_MAIN_CHARS) return undefined;
  for (const block of lead) for (const element of prunableElements(block, stats)) prunable.push(element);
  for (const element of prunable) element.remove();
  let main = container;
  if ((lead.length > 0 || title) && root.ownerDocument) {
    main = root.ownerDocument.createElement('div');
    // The page's own title, once, when the text it heads was found without it.
    if (title && !holdsHeading(container, title)) {
      main.appendChild(title);
      if (deck) main.appendChild(deck);
    }
    for (const block of lead) main.appendChild(block);
    main.appendChild(container);
  }
  removeDuplicateBlocks(main);
  removeBoilerplateLines(main);
  return main;
}
