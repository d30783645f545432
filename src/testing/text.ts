import type { LanguageModelV4Content } from '@ai-sdk/provider';

/**
 * A text part of a scripted model response.
 *
 * @example
 * ```ts
 * const model = scriptedModel(text('Paris is the capital of France.'));
 * const result = await interventions.generateText({ model, prompt: 'Capital of France?' });
 * // result.text === 'Paris is the capital of France.'
 * ```
 */
export function text(value: string): LanguageModelV4Content {
  return { type: 'text', text: value };
}
