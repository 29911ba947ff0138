export type { CorpusPage, CorpusRoute } from './corpus-parts';
export { JS_PAGES } from './js-pages';
export { STATIC_PAGES } from './static-pages';
export { startJsCorpusSite, type JsCorpusSite } from './js-corpus-site';
export { JS_PAGES_HELDOUT, STATIC_PAGES_HELDOUT } from './held-out-pages';
export { JS_PAGES_HELDOUT_2, STATIC_PAGES_HELDOUT_2 } from './held-out-2-pages';
