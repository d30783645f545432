import type { LanguageModelV4Content } from '@ai-sdk/provider';

/**
 * A tool call part of a scripted model response. `input` is sent as JSON; a
 * string is sent as it is (the raw argument text, e.g. to script malformed
 * arguments).
 *
 * @example
 * ```ts
 * const model = scriptedModel(
 *   toolCall('call-1', 'delete_file', { path: '/tmp/report.txt' }),
 *   text('Done.'),
 * );
 * const broken = toolCall('call-2', 'delete_file', '{"path": '); // the SDK reports invalid input to the model
 * ```
 */
export function toolCall(toolCallId: string, toolName: string, input: unknown): LanguageModelV4Content {
  return {
    type: 'tool-call',
    toolCallId,
    toolName,
    input: typeof input === 'string' ? input : JSON.stringify(input),
  };
}
