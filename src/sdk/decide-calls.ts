import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { uniqueToolCallIds } from '../model/unique-tool-call-ids.ts';
import type { Run } from '../run/run.ts';
import { decideTurn } from '../tool-call/decide-turn.ts';
import { decidesInModelLayer } from '../tool-call/decision-point.ts';

/**
 * The tool-call decisions of a whole response, when the run takes them
 * (`generateText` and streams alike: a transform is written into the
 * response before the SDK parses it). Each call gets an id of its own
 * first: its decision is then found by that id and by nothing else.
 */
export function decideCalls(
  run: Run,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  return decidesInModelLayer(run) ? decideTurn(run, uniqueToolCallIds(response)) : response;
}
