import type { HostileCase } from './hostile-case-kit';
import { LAST_PAGE_CASES, PAGE_CASES } from './hostile-cases-pages';
import { REQUEST_CASES } from './hostile-cases-requests';
import { TARGET_CASES } from './hostile-cases-targets';

export type { Answer, CaseContext, HostileCase } from './hostile-case-kit';

/**
 * The hostile corpus (issue 12): every case with the answer the spec documents for it. Refusals are
 * in the spec error shape `{success:false, error, code}` and cost nothing; handled pages are 200.
 */
export const HOSTILE_CASES: HostileCase[] = [
  ...PAGE_CASES,
  ...TARGET_CASES,
  ...REQUEST_CASES,
  ...LAST_PAGE_CASES,
];
