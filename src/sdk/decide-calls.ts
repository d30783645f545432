import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { repeatsAnId } from '../model/repeats-an-id.ts';
import type { Run } from '../run/run.ts';
import { decidesInModelLayer } from '../tool-call/decision-point.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';

/** Deciding a whole response's calls: its code loads with the first response a runtime decides so. */
const responseDecisions = onDemand(() => import('./decide-response.ts'));
/** Giving repeated ids ids of their own: its code loads with the first response that repeats one. */
const callIds = onDemand(() => import('../model/unique-tool-call-ids.ts'));

/**
 * The tool-call decisions of a whole response, when the model layer takes
 * them (`decidesInModelLayer`; `generateText` and streams alike: a
 * transform is written into the response before the SDK parses it). Each
 * call gets an id of its own first: its decision is then found by that id
 * and by nothing else. Otherwise the SDK's approval point decides the calls
 * (`toolApproval`), and a `generateText` response (`'generated'`) only gets
 * an id of its own for each call that repeats one: the SDK keys a step's
 * approvals by id, and would run neither call of a repeated id. A response
 * the SDK gets as a stream (`'streamed'`: a step held whole, or one a
 * `preRequest` hook served) keeps its ids, as a live step does: the
 * approval point denies a second call with an id.
 */
export function decideCalls(
  run: Run,
  response: LanguageModelV4GenerateResult,
  as: 'streamed' | 'generated' = 'generated',
): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  if (!decidesInModelLayer(run)) {
    if (as === 'streamed' || !run.decidesToolCalls || !repeatsAnId(response.content)) return response;
    const ids = callIds();
    return isThenable(ids) ? ids.then(({ uniqueToolCallIds }) => uniqueToolCallIds(response)) : ids.uniqueToolCallIds(response);
  }
  const loaded = responseDecisions();
  return isThenable(loaded) ? loaded.then(({ decideResponse }) => decideResponse(run, response)) : loaded.decideResponse(run, response);
}
