import { knownOptions } from '../util/known-options.ts';
import { createRedactionHandler, type RedactedToolValue, type RedactionHandler } from './create-redaction-handler.ts';
import { PII_LABELS, PII_ORDER, type PiiKind, piiRules } from './pii-rules.ts';

/**
 * Options of {@link redactPii}.
 *
 * @example
 * ```ts
 * const options: RedactPiiOptions = { kinds: ['email', 'phone'], replacement: (_match, kind) => `<${kind}>` };
 * const pii = redactPii(options);
 * ```
 */
export interface RedactPiiOptions {
  /** The handler's (and redactor's) name. Default `'redact-pii'`. */
  readonly name?: string;
  /** What to redact. Default: all of them. */
  readonly kinds?: readonly PiiKind[];
  /**
   * The text that replaces a match: one string for every kind, or a function
   * of the match and its kind. Default `[EMAIL]`, `[PHONE]`, `[SSN]`,
   * `[CREDIT_CARD]`, `[IP_ADDRESS]`.
   */
  readonly replacement?: string | ((match: string, kind: PiiKind) => string);
  /**
   * The lookahead of every rule (see {@link RedactionRule}). Default: each
   * kind's own, from 16 (SSN) to 128 (email: the longest email that is not
   * recognisable as one yet); the stream holds back their sum, 316
   * characters for all kinds, while nothing matches.
   */
  readonly lookahead?: number;
  /** Told about each redacted arguments object or result, with the original. */
  readonly onRedacted?: (value: RedactedToolValue) => void | PromiseLike<void>;
}

/** The keys of {@link RedactPiiOptions}: `redactPii` checks its options against them. */
export const REDACT_PII_OPTIONS = knownOptions<RedactPiiOptions>({
  name: true,
  kinds: true,
  replacement: true,
  lookahead: true,
  onRedacted: true,
});

/**
 * Redacts personal data (emails, phone numbers, SSNs, card numbers, IP
 * addresses) wherever it would reach the model or leave through a tool:
 *
 * - tool **arguments**, before the tool runs (the history then shows the
 *   redacted arguments, and the SDK validates them again: an argument whose
 *   schema demands the real value, `z.email()`, makes the call invalid and the
 *   model reads the validation error);
 * - tool **results**, before the model reads them (the result the run
 *   reports, the UI stream included, is the redacted one: keep the original
 *   with `onRedacted`);
 * - the **errors** tools throw, before their text reaches the model, the
 *   response messages or the UI (the error keeps its class);
 * - the model's **text** and reasoning, streamed or not, through `.redactor`.
 *
 * Values are walked deeply (strings inside objects and arrays, object keys
 * too); the original value is never mutated, and `__proto__` or
 * `constructor` keys stay plain data. Card numbers are redacted only when
 * they pass the Luhn check, so order ids and timestamps are left alone.
 * Preliminary results of a streaming (async generator) tool reach the UI
 * unredacted; the model only ever reads the final, redacted one.
 *
 * @example
 * ```ts
 * const pii = redactPii({
 *   kinds: ['email', 'phone', 'credit-card'],
 *   onRedacted: ({ toolCall, where, original }) => console.info('redacted', toolCall.toolName, where, original),
 * });
 * const interventions = createInterventions({ handlers: [pii], redactors: [pii.redactor] });
 * const result = await interventions.generateText({ model, tools: { search }, prompt: 'Who is our contact at ACME?' });
 * // the model read "[EMAIL]" where the search returned "jane@acme.com"
 * ```
 */
export function redactPii(options: RedactPiiOptions = {}): RedactionHandler {
  REDACT_PII_OPTIONS.check(options, `redactPii "${options.name ?? 'redact-pii'}"`);
  const { name = 'redact-pii', kinds = PII_ORDER, replacement, lookahead, onRedacted } = options;
  const label = (match: string, kind: PiiKind): string =>
    typeof replacement === 'function' ? replacement(match, kind) : (replacement ?? PII_LABELS[kind]);
  const selected = new Set(kinds);
  const rules = PII_ORDER.filter((kind) => selected.has(kind))
    .flatMap((kind) => piiRules(kind, label))
    .map((rule) => (lookahead === undefined ? rule : { ...rule, lookahead }));
  return createRedactionHandler({ name, rules, onRedacted });
}
