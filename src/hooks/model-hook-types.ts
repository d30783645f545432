import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';

/**
 * A provider-level request (`LanguageModelV4CallOptions`): what `preRequest`
 * and `onResponse` hooks see, and what a model middleware's `params` are.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * const cacheKey = (request: ProviderRequest) => JSON.stringify([request.prompt, request.tools]);
 * interventions.addHook('preRequest', ({ request }) => {
 *   const cached = responses.get(cacheKey(request));
 *   if (cached) return { response: cached };
 * });
 * ```
 */
export type ProviderRequest = LanguageModelV4CallOptions;
/**
 * A provider-level response (`LanguageModelV4GenerateResult`): what
 * `onResponse` hooks see, and what a model middleware's `wrapGenerate` returns.
 *
 * @example
 * ```ts
 * const cache = new Map<string, ProviderResponse>();
 * interventions.addHook('onResponse', ({ request, response }) => void cache.set(JSON.stringify(request.prompt), response));
 * ```
 */
export type ProviderResponse = LanguageModelV4GenerateResult;
/**
 * Context shared by the provider-level hooks (`preRequest`, `onResponse`).
 *
 * @example
 * ```ts
 * const where = ({ stepNumber }: ModelHookContext) => (stepNumber === undefined ? 'middleware' : `step ${stepNumber}`);
 * interventions.addHook('onResponse', (context) => console.log(where(context), context.response.finishReason.unified));
 * ```
 */
export interface ModelHookContext {
  /** The model called: its provider and id (`undefined` through `interventions.middleware` before the call). */
  readonly model: { readonly provider: string; readonly modelId: string };
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The step number, or `undefined` through `interventions.middleware` alone. */
  readonly stepNumber: number | undefined;
  /** The run's `runtimeContext`, or `undefined` through `interventions.middleware` alone. */
  readonly runtimeContext: Context | undefined;
  readonly abortSignal: AbortSignal | undefined;
}
/**
 * `preRequest`: before each provider call, with the request about to be sent.
 *
 * @example
 * ```ts
 * interventions.addHook('preRequest', ({ request, stepNumber }: PreRequestContext) => {
 *   console.log(`step ${stepNumber}: ${request.prompt.length} messages, ${request.tools?.length ?? 0} tools`);
 * });
 * ```
 */
export interface PreRequestContext extends ModelHookContext {
  readonly request: ProviderRequest;
}
/**
 * Modify the request, or short-circuit with a response (the provider is not
 * called). Return nothing to send the request as it is.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * interventions.addHook('preRequest', ({ request }): PreRequestResult => {
 *   const cached = responses.get(JSON.stringify(request.prompt));
 *   if (cached) return { response: cached };
 *   return { request: { ...request, maxOutputTokens: Math.min(request.maxOutputTokens ?? 4_096, 4_096) } };
 * });
 * ```
 */
export type PreRequestResult = void | { readonly request: ProviderRequest } | { readonly response: ProviderResponse };
/**
 * `onResponse`: after each provider call (or a `preRequest` short-circuit),
 * with the request and its response.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * interventions.addHook('onResponse', ({ request, response }: OnResponseContext) => {
 *   responses.set(JSON.stringify(request.prompt), response);
 * });
 * ```
 */
export interface OnResponseContext extends ModelHookContext {
  readonly request: ProviderRequest;
  readonly response: ProviderResponse;
}
/**
 * Replace the response: later hooks and the run see the replacement.
 * Return nothing to keep it.
 *
 * @example
 * ```ts
 * // drop reasoning parts before the run sees them
 * interventions.addHook('onResponse', ({ response }): OnResponseResult => ({
 *   response: { ...response, content: response.content.filter((part) => part.type !== 'reasoning') },
 * }));
 * ```
 */
export type OnResponseResult = void | { readonly response: ProviderResponse };
