import type { DomDocument, DomElement } from './dom.types';

/** The elements page metadata is read from, wherever they sit in the document. */
export interface HeadElements {
  /** The first `<base href>`. */
  base?: DomElement;
  /** The first `<title>`. */
  title?: DomElement;
  /** Every `<meta>`, in document order. */
  metas: DomElement[];
  /** Every `<link rel href>`, in document order. */
  links: DomElement[];
}

/**
 * One walk over the document (template contents excluded, as for `querySelectorAll`) for the
 * elements that the base URL and the metadata come from — instead of a selector search per question,
 * each of which visits the whole page when the element is absent.
 */
export function headElements(document: DomDocument): HeadElements {
  const found: HeadElements = { metas: [], links: [] };
  const walk = (first: DomElement | null): void => {
    for (let element = first; element; element = element.nextElementSibling) {
      switch (element.localName) {
        case 'meta':
          found.metas.push(element);
          break;
        case 'link':
          if (element.hasAttribute('rel') && element.hasAttribute('href')) found.links.push(element);
          break;
        case 'title':
          found.title ??= element;
          break;
        case 'base':
          if (!found.base && element.hasAttribute('href')) found.base = element;
          break;
        case 'template':
          continue;
      }
      walk(element.firstElementChild);
    }
  };
  walk(document.documentElement);
  return found;
}
