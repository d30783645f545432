import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { uniqueToolCallIds } from '../model/unique-tool-call-ids.ts';
import type { Run } from '../run/run.ts';
import { decideTurn } from '../tool-call/decide-turn.ts';

/**
 * The tool-call decisions of a whole response, each call with an id of its
 * own first (its decision is then found by that id and by nothing else).
 * Loads with the first response a runtime decides in the model layer.
 */
export function decideResponse(
  run: Run,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  return decideTurn(run, uniqueToolCallIds(response));
}
