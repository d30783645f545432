import { onDemand } from '../util/on-demand.ts';

/**
 * The model output's redaction (src/redaction/redact-model-output.ts), loaded
 * with the first response or stream a runtime with redactors gets, then at
 * hand for every later one.
 */
export const modelOutputRedaction = onDemand(() => import('./redact-model-output.ts'));

/** The loaded module of {@link modelOutputRedaction}. */
export type ModelOutputRedaction = Awaited<ReturnType<typeof modelOutputRedaction>>;
