/**
 * The text the AI SDK gives an error where the model reads it (a tool
 * error's result, a rewritten repair error): `String(error)` of an `Error`,
 * the string itself, `'unknown error'` for nothing, and JSON for anything
 * else, as `getErrorMessage` of `@ai-sdk/provider-utils` does. Written here
 * because `ai` does not re-export it, and importing it from
 * `@ai-sdk/provider-utils` puts that package's module-level code into every
 * bundle of this library (scripts/size.ts).
 */
export function getErrorMessage(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.toString();
  return JSON.stringify(error);
}
