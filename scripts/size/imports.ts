/**
 * The imports `npm run size` measures, and their budgets (also checked by
 * `npm test`: test/scripts/size.test.ts).
 */

/** One import an application may write, and how much of it may load at once (gzipped bytes, kB = 1,000 bytes). */
export interface MeasuredImport {
  readonly name: string;
  readonly source: string;
  readonly budgetGzipBytes?: number;
}

/**
 * Budgets in gzipped bytes, of what the import loads at once (code the runtime
 * loads only when a feature first acts is reported beside it, on demand).
 * Raise one only with the reason in the commit message.
 *
 * The smallest import: the design's budget is 45 kB (../shared/DESIGN.md, "Pay only for what acts",
 * issue 35): a budget never decides where code lives. The tool call's one decision owner loads at
 * once with the path it serves (the approval point, the model layer's turn, the tool-call hold, the
 * resume's decision): 33.4 -> 37.2 kB. Lazy loading stays for large features most runs never use.
 */
export const IMPORTS: readonly MeasuredImport[] = [
  {
    name: "{ createInterventions } from 'ai-interventions'",
    source: "export { createInterventions } from 'ai-interventions';",
    budgetGzipBytes: 45_000,
  },
  { name: "* from 'ai-interventions'", source: "export * from 'ai-interventions';" },
  { name: "* from 'ai-interventions/client'", source: "export * from 'ai-interventions/client';" },
  { name: "* from 'ai-interventions/testing'", source: "export * from 'ai-interventions/testing';" },
  { name: "* from 'ai-interventions/telemetry'", source: "export * from 'ai-interventions/telemetry';" },
];
