import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { holdToolCalls } from '../model/hold-tool-calls.ts';
import type { Run } from '../run/run.ts';
import { decideStreamedCalls } from '../tool-call/decide-turn.ts';
import { decidesWithTurn } from '../tool-call/decision-point.ts';

/**
 * A live step's tool calls held until the run decides them (see
 * `holdsStreamedCalls`): its code, and that of deciding them, loads with the
 * first step a runtime holds the calls of.
 */
export function holdCalls(run: Run, stream: ReadableStream<LanguageModelV4StreamPart>): ReadableStream<LanguageModelV4StreamPart> {
  return holdToolCalls(stream, { together: decidesWithTurn(run), decide: (calls) => decideStreamedCalls(run, calls) });
}
