import type { Page } from 'puppeteer-core';

/**
 * The rendered document as HTML. `page.content()` serialises the light DOM only, so text a web
 * component renders into an open shadow root would be lost: when the page has shadow roots, each
 * one's content is written into a copy of the document as the first child of its host (marked
 * `data-shadow-root`), nested roots included. The live page is not touched.
 */
export async function renderedHtml(page: Page): Promise<string> {
  const flattened = await page.evaluate(flattenShadowRoots).catch(() => null);
  return flattened ?? page.content();
}

/** In the page: the document with open shadow roots inlined, or null when there are none. */
function flattenShadowRoots(): string | null {
  /* eslint-disable @typescript-eslint/no-explicit-any -- in-page DOM code (the workspace has no DOM types) */
  const { document } = globalThis as any;
  const hasShadow = (root: any): boolean =>
    Array.from(root.querySelectorAll('*') as ArrayLike<any>).some((element: any) => element.shadowRoot);
  if (!hasShadow(document)) return null;
  const inline = (originalRoot: any, copyRoot: any) => {
    const originals = Array.from(originalRoot.querySelectorAll('*') as ArrayLike<any>);
    const copies = Array.from(copyRoot.querySelectorAll('*') as ArrayLike<any>);
    if (originals.length !== copies.length) return;
    originals.forEach((original: any, index: number) => {
      if (!original.shadowRoot) return;
      const container = document.createElement('div');
      container.setAttribute('data-shadow-root', '');
      for (const child of Array.from(original.shadowRoot.childNodes as ArrayLike<any>))
        container.appendChild(child.cloneNode(true));
      for (const style of Array.from(container.querySelectorAll('style') as ArrayLike<any>)) style.remove();
      inline(original.shadowRoot, container);
      copies[index].insertBefore(container, copies[index].firstChild);
    });
  };
  const copy = document.documentElement.cloneNode(true);
  inline(document.documentElement, copy);
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return doctype + copy.outerHTML;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}
