import type { InterventionsReport } from './interventions-run.ts';

/** The report of a call that needed no run. */
export const EMPTY_REPORT: InterventionsReport = Object.freeze({ decisions: Object.freeze([]) });

/** Puts the run's report on the SDK result as `result.interventions` (not enumerable). */
export function attachReport<RESULT extends object>(
  result: RESULT,
  report: InterventionsReport,
): RESULT & { readonly interventions: InterventionsReport } {
  Object.defineProperty(result, 'interventions', { value: report, enumerable: false, configurable: true });
  return result as RESULT & { readonly interventions: InterventionsReport };
}
