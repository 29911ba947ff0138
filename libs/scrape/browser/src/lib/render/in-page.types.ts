/**
 * The few DOM types the functions evaluated inside the page use. The workspace compiles without the
 * DOM library (it is server code), so in-page functions read their globals as
 * `globalThis as unknown as PageGlobals` and stay type-checked.
 */
export interface PageStyle {
  getPropertyValue(name: string): string;
  setProperty(name: string, value: string, priority?: string): void;
  [property: string]: unknown;
}

export interface PageRect {
  x: number;
  y: number;
  width: number;
  height: number;
  top: number;
  left: number;
}

export interface PageElement {
  tagName: string;
  id: string;
  className: unknown;
  textContent: string | null;
  innerText?: string;
  style: PageStyle;
  parentElement: PageElement | null;
  children: ArrayLike<PageElement>;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  getBoundingClientRect(): PageRect;
  remove(): void;
  scrollBy(x: number, y: number): void;
  closest(selector: string): PageElement | null;
}

export interface PageDocument {
  documentElement: PageElement;
  body: PageElement | null;
  head: PageElement | null;
  title: string;
  readyState: string;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  getElementById(id: string): PageElement | null;
  createElement(tag: string): PageElement & { textContent: string | null };
  addEventListener(type: string, listener: () => void, options?: unknown): void;
  styleSheets: ArrayLike<{
    cssRules?: ArrayLike<{ cssText: string; selectorText?: string; style?: PageStyle }>;
  }>;
}

export interface PageStorage {
  length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface PageGlobals {
  document: PageDocument;
  location: { href: string; origin: string };
  localStorage: PageStorage;
  sessionStorage: PageStorage;
  innerHeight: number;
  innerWidth: number;
  scrollBy(x: number, y: number): void;
  getComputedStyle(element: PageElement, pseudo?: string | null): PageStyle;
  matchMedia(query: string): { matches: boolean };
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: unknown): void;
    disconnect(): void;
  };
  setTimeout(callback: () => void, ms: number): number;
  performance: { now(): number };
}
