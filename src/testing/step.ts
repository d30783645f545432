import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4Usage } from '@ai-sdk/provider';

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * One scripted model response made of several parts: finish reason
 * `tool-calls` when it has tool calls, `stop` otherwise, and a small fixed
 * usage. Override anything with a spread.
 *
 * @example
 * ```ts
 * const model = scriptedModel(
 *   step(text('Let me look.'), toolCall('call-1', 'search', { query: 'weather Paris' })),
 *   step(text('It is sunny.')),
 *   { ...step(text('cut off')), finishReason: { unified: 'length', raw: 'max_tokens' } },
 * );
 * ```
 */
export function step(...content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}
