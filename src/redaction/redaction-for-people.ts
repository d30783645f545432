import type { Redactor } from './create-redactor.ts';

/**
 * The text redaction for what people see of a decision (the UI's
 * `data-intervention` parts: reasons, prompts, feedback, answers, edited
 * arguments): every registered rule, from the runtime's `redactors` and from
 * the redaction handlers' own redactors (`redactSecrets()` registered only
 * as a handler still redacts there). `undefined` when nothing redacts.
 */
export function redactionForPeople(
  runtimeRedactors: readonly Redactor[],
  handlers: readonly { readonly handler: object }[],
): ((text: string) => string) | undefined {
  const redactors = new Set<Redactor>(runtimeRedactors);
  for (const { handler } of handlers) {
    const own = (handler as { readonly redactor?: unknown }).redactor;
    if (isRedactor(own)) redactors.add(own);
  }
  if (redactors.size === 0) return undefined;
  const all = [...redactors];
  return (text) => all.reduce((redacted, redactor) => redactor.redact(redacted), text);
}

function isRedactor(value: unknown): value is Redactor {
  return typeof value === 'object' && value !== null && typeof (value as { readonly redact?: unknown }).redact === 'function';
}
