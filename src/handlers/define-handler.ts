import type { ToolSet } from 'ai';
import { toolScope } from '../tools/tool-scope.ts';
import type { InterventionHandlerLike } from './intervention-handler.ts';
import { checkPlainKeys } from './registered-handler.ts';

/**
 * Declares a handler as a plain object, with every lifecycle method typed.
 * Returns its argument unchanged. A key that is not part of a handler (a
 * typo such as `beforeToolcall`) is a type error, as it would be a method
 * that is never called (and an `InvalidHandlerError` here for JavaScript
 * callers: `'unknown-lifecycle'` or `'unknown-key'`); a `tools` scope that cannot be valid throws an
 * `InvalidHandlerError` naming the handler here, not at the first call.
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
export function defineHandler<
  TOOLS extends ToolSet = ToolSet,
  HANDLER extends InterventionHandlerLike<TOOLS> = InterventionHandlerLike<TOOLS>,
>(handler: HANDLER & OnlyHandlerKeys<HANDLER>): HANDLER {
  // a JavaScript caller's unknown key is an error here, as it is a type error for TypeScript
  checkPlainKeys(handler, handler.name);
  if (handler.tools !== undefined) toolScope(handler.tools, { owner: handler.name });
  return handler;
}

/** Every key of `HANDLER` that `InterventionHandlerLike` does not have, typed `never`. */
type OnlyHandlerKeys<HANDLER> = {
  readonly [KEY in Exclude<keyof HANDLER, keyof InterventionHandlerLike>]: never;
};
