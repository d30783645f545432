import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { Run } from '../run/run.ts';
import { decidesInModelLayer, holdsStreamedCalls } from '../tool-call/decision-point.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';

/** Deciding a whole response's calls: its code loads with the first response a runtime decides so. */
const responseDecisions = onDemand(() => import('./decide-response.ts'));

/**
 * The tool-call decisions of a whole response, when the run takes them
 * (`generateText` and streams alike: a transform is written into the
 * response before the SDK parses it). Each call gets an id of its own
 * first: its decision is then found by that id and by nothing else. A
 * response the SDK gets as a stream (`'streamed'`: a step held whole, or one
 * a `preRequest` hook served) is decided here only when its calls would be
 * held (`holdsStreamedCalls`); otherwise the SDK's approval point decides
 * them, as in a live step.
 */
export function decideCalls(
  run: Run,
  response: LanguageModelV4GenerateResult,
  as: 'streamed' | 'generated' = 'generated',
): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  const decides = as === 'streamed' ? holdsStreamedCalls(run) : decidesInModelLayer(run);
  if (!decides) return response;
  const loaded = responseDecisions();
  return isThenable(loaded) ? loaded.then(({ decideResponse }) => decideResponse(run, response)) : loaded.decideResponse(run, response);
}
