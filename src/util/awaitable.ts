/**
 * A value, or a promise of it: handler methods and hooks may be synchronous
 * or `async`.
 *
 * @example
 * ```ts
 * type ToolCheck = (event: BeforeToolCallEvent) => Awaitable<BeforeToolCallAction>;
 * const allowAll: ToolCheck = () => InterventionActions.proceed();
 * const askPolicy: ToolCheck = async ({ toolCall }) =>
 *   (await policy.allows(toolCall.toolName)) ? InterventionActions.proceed() : InterventionActions.deny('Not permitted by policy');
 * ```
 */
export type Awaitable<T> = T | PromiseLike<T>;
