import type { DecisionRecord } from '../actions/decision-record.ts';

/**
 * What `result.interventions` holds: the run's decision records. Each read
 * of `decisions` gives the records so far (one array, brought up to date by
 * the read: a plain `proceed`'s record is built only when read); for
 * `streamText`, read it once the stream has finished.
 *
 * @example
 * ```ts
 * const result = interventions.streamText({ model, tools, messages });
 * await result.consumeStream();
 * const report: InterventionsReport = result.interventions;
 * console.log(report.decisions.map((record) => `${record.handler}: ${record.action}`));
 * ```
 */
export interface InterventionsReport {
  /** Every handler evaluation of the run so far, in order: the same array at every read, up to date as of the read. */
  readonly decisions: readonly DecisionRecord[];
}

/** The report of a call that needed no run. */
export const EMPTY_REPORT: InterventionsReport = Object.freeze({ decisions: Object.freeze([]) });

/** Puts a run's report on the SDK result as `result.interventions` (not enumerable). */
export function attachReport<RESULT extends object>(
  result: RESULT,
  report: InterventionsReport,
): RESULT & { readonly interventions: InterventionsReport } {
  Object.defineProperty(result, 'interventions', { value: report, enumerable: false, configurable: true });
  return result as RESULT & { readonly interventions: InterventionsReport };
}
