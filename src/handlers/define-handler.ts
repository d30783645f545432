import type { InterventionHandlerLike } from './intervention-handler.ts';

/**
 * Declares a handler as a plain object, with every lifecycle method typed.
 * Returns its argument unchanged.
 *
 * @example
 * ```ts
 * const noProd = defineHandler({
 *   name: 'no-prod',
 *   onError: 'deny',
 *   beforeToolCall: ({ toolCall }) =>
 *     JSON.stringify(toolCall.input).includes('prod')
 *       ? InterventionActions.deny('Production is off limits')
 *       : InterventionActions.proceed(),
 * });
 * ```
 */
export function defineHandler<HANDLER extends InterventionHandlerLike>(
  handler: HANDLER,
): HANDLER {
  return handler;
}
