const HOOK = Symbol.for('ai-interventions.hook');

/**
 * Which hook threw `error`, e.g. `'preToolCall hook "checkPermissions"'` (a
 * named function) or `'onResponse hook #2'` (its registration position), or
 * `undefined` when no hook threw it. A hook's throw ends the call and reaches
 * `onChatError` and the caller as it was thrown (seed 004); the hook is
 * recorded on the error under a `Symbol.for('ai-interventions.hook')` key,
 * which Node's console shows with the error. A thrown primitive or frozen
 * object cannot carry it.
 *
 * @example
 * ```ts
 * interventions.addHook('onChatError', ({ error }) => {
 *   console.error(`the run failed in ${thrownByHook(error) ?? 'the model, a tool or a handler'}:`, error);
 * });
 * ```
 */
export function thrownByHook(error: unknown): string | undefined {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return undefined;
  const label: unknown = (error as Record<symbol, unknown>)[HOOK];
  return typeof label === 'string' ? label : undefined;
}

/**
 * Records on `error` that the hook `label` threw it, unless a hook already
 * did (the innermost one is named). Returns `error`, to rethrow.
 */
export function markThrownByHook(error: unknown, label: string): unknown {
  if (
    error !== null &&
    (typeof error === 'object' || typeof error === 'function') &&
    Object.isExtensible(error) &&
    !Object.hasOwn(error, HOOK)
  ) {
    // enumerable, so it shows when the error is printed; a symbol, so JSON and messages are unchanged
    Object.defineProperty(error, HOOK, { value: label, enumerable: true, configurable: true, writable: false });
  }
  return error;
}
