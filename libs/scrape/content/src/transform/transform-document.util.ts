import { documentBaseUrl, resolveUrls } from '../clean/resolve-urls.util';
import { expandTagSelectors, selectAll } from '../clean/selectors.util';
import { stripNonContent } from '../clean/strip-non-content.util';
import { repairMojibake } from '../decode/repair-mojibake.util';
import type { DomDocument, DomElement } from '../dom/dom.types';
import { headElements } from '../dom/head-elements.util';
import { parseDocument } from '../dom/parse-document.util';
import { collectImages, collectLinks } from '../links/collect-links.util';
import { extractMainContent } from '../main-content/extract-main-content.util';
import { htmlToMarkdown } from '../markdown/html-to-markdown.util';
import { extractMetadata } from '../metadata/extract-metadata.util';
import { bodyKind } from './body-kind.util';
import { transformNonHtml } from './non-html.util';
import type { ContentOptions, OutputFormat, TransformInput, TransformResult } from './transform.types';

function isInside(element: DomElement, ancestors: ReadonlySet<DomElement>): boolean {
  for (let p = element.parentElement; p; p = p.parentElement) if (ancestors.has(p)) return true;
  return false;
}

/** A new `<div>` holding clones of the elements matching `includeTags` (outermost matches only). */
function includedContent(
  document: DomDocument,
  body: DomElement,
  includeTags: readonly string[],
): DomElement {
  const container = document.createElement('div');
  const matches = selectAll(body, expandTagSelectors(includeTags));
  const chosen = new Set(matches);
  const outermost = new Set(matches.filter((el) => !isInside(el, chosen)));
  const walk = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (outermost.has(child)) container.appendChild(child.cloneNode(true));
      else walk(child);
    }
  };
  walk(body);
  return container;
}

function removeExcluded(root: DomElement, excludeTags: readonly string[]): void {
  for (const element of selectAll(root, expandTagSelectors(excludeTags))) element.remove();
}

/**
 * Turns a fetched page into the requested formats: cleaned HTML, GitHub-flavoured markdown, links,
 * images, and metadata. The HTML is parsed once; only the requested formats are produced.
 */
export function transformDocument(
  input: TransformInput,
  formats: readonly OutputFormat[],
  options: ContentOptions,
): TransformResult {
  const wanted = new Set(formats);
  const kind = bodyKind(input.body, input.contentType);
  if (kind !== 'html') return transformNonHtml(input.body, kind, wanted);

  const document = parseDocument(input.body, repairMojibake);
  const elements = headElements(document);
  const baseUrl = documentBaseUrl(document, input.url, elements);
  const metadata = extractMetadata(document, baseUrl, elements);
  const body = document.body ?? document.documentElement;
  const included = options.includeTags?.some((t) => t.trim()) ?? false;
  let root = included ? includedContent(document, body, options.includeTags ?? []) : body;
  stripNonContent(root);
  if (options.excludeTags?.length) removeExcluded(root, options.excludeTags);

  const result: TransformResult = { metadata };
  if (wanted.has('images')) {
    const ogImage = metadata.ogImage;
    result.images = collectImages(root, baseUrl, typeof ogImage === 'string' ? [ogImage] : []);
  }
  if (options.onlyMainContent && !included) root = extractMainContent(root) ?? root;
  resolveUrls(root, baseUrl);

  if (wanted.has('html')) result.html = (root === body || included ? root.innerHTML : root.outerHTML).trim();
  if (wanted.has('markdown')) {
    result.markdown = htmlToMarkdown(root, { removeBase64Images: options.removeBase64Images });
  }
  if (wanted.has('links')) result.links = collectLinks(root, baseUrl);
  return result;
}
