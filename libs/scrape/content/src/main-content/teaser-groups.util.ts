import type { DomElement } from '../dom/dom.types';
import { query, queryAll } from '../dom/query.util';
import { memoizeByString } from '../dom/string-memo.util';
import type { StatsMap } from './content-stats.util';

const MIN_ITEMS = 3;
const MAX_ITEM_CHARS = 600;
const MIN_TITLE_LINK_CHARS = 20;

/** The first class of a class attribute, digits dropped (`card-3` and `card-7` are alike). */
const firstClass = memoizeByString((cls: string) => (cls.trim().split(/\s+/)[0] ?? '').replace(/\d+/g, ''));

function signature(element: DomElement): string {
  const cls = element.getAttribute('class');
  return `${element.localName}.${cls ? firstClass(cls) : ''}`;
}

/** A card whose links all lead to one page (its image, its title, its "Learn more"). */
function linksToOnePage(item: DomElement): boolean {
  const hrefs = Array.from(queryAll(item, 'a[href]')).map((a) => a.getAttribute('href'));
  return hrefs.length >= 2 && hrefs.every((h) => h === hrefs[0]);
}

/**
 * A short block led by a title: a long link that is a heading, an image card, or most of the text;
 * or a card whose links (title and call to action) all lead to the same page.
 */
function isTeaser(item: DomElement, text: number, maxLink: number): boolean {
  if (text === 0 || text > MAX_ITEM_CHARS) return false;
  if (linksToOnePage(item)) return true;
  if (maxLink < MIN_TITLE_LINK_CHARS) return false;
  return maxLink >= 0.4 * text || query(item, 'h1, h2, h3, h4, h5, h6, img, picture') !== null;
}

/**
 * Elements whose children are a run of similar teasers: each a short block led by a title link
 * (a card in a "related posts" row, a product tile, a news list entry). Whether such a group is the
 * page's content (a listing) or secondary to it (related items under an article) is decided by the
 * caller from its share of the page.
 */
export function findTeaserGroups(root: DomElement, stats: StatsMap): DomElement[] {
  const groups: DomElement[] = [];
  const visit = (element: DomElement): void => {
    const bySignature = new Map<string, DomElement[]>();
    let childCount = 0;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      childCount++;
      const key = signature(child);
      const list = bySignature.get(key);
      if (list) list.push(child);
      else bySignature.set(key, [child]);
    }
    const own = stats.get(element);
    if (own && childCount >= MIN_ITEMS && own.text > 0) {
      for (const items of bySignature.values()) {
        if (items.length < MIN_ITEMS) continue;
        let teasers = 0;
        let text = 0;
        for (const item of items) {
          const s = stats.get(item);
          if (!s) continue;
          text += s.text;
          if (isTeaser(item, s.text, s.maxLink)) teasers++;
        }
        if (teasers >= MIN_ITEMS && teasers >= 0.7 * items.length && text >= 0.6 * own.text) {
          groups.push(element);
          return;
        }
      }
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) visit(child);
  };
  visit(root);
  return groups;
}
