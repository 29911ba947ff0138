import type { CorpusPage } from './corpus-parts';
import { JS_PAGES_DOM } from './js-pages-dom';
import { JS_PAGES_SCRIPTED } from './js-pages-scripted';

/**
 * Pages whose meaningful text appears only after their scripts ran (the tuning set of the
 * JavaScript detector): each pattern seen in the wild at least once. Markers are `zq<id>word`.
 */
export const JS_PAGES: CorpusPage[] = [...JS_PAGES_SCRIPTED, ...JS_PAGES_DOM];
