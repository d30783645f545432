import type { Context } from '@ai-sdk/provider-utils';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type {
  AfterToolCallEvent,
  BeforeToolCallEvent,
  ToolCallInfo,
} from '../handlers/intervention-events.ts';
import type {
  AfterToolCallAction,
  Awaitable,
  BeforeToolCallAction,
  InterventionHandlerLike,
} from '../handlers/intervention-handler.ts';
import { createRedactor, type RedactionRule, type Redactor } from '../redaction/create-redactor.ts';
import { redactData } from '../redaction/redact-data.ts';
import type { ToolErrorDetails, ToolErrorRedacting } from '../redaction/redact-tool-error.ts';

/**
 * A kind of personal data {@link redactPii} finds: email addresses, phone
 * numbers (North American with separators, or international with a `+`),
 * US social security numbers (`123-45-6789`), payment card numbers (13–19
 * digits that pass the Luhn check and start like a card, 2–6) and IP
 * addresses (v4 and v6).
 *
 * @example
 * ```ts
 * const kinds: PiiKind[] = ['email', 'credit-card'];
 * const pii = redactPii({ kinds });
 * ```
 */
export type PiiKind = 'email' | 'phone' | 'ssn' | 'credit-card' | 'ip';

/**
 * What `onRedacted` receives each time a redaction handler changed a tool
 * call's arguments or result: the value before (`original`, never mutated)
 * and after (`redacted`, what the tool or the model gets). Keep `original`
 * where your app needs the full value (your UI, your audit log): the run
 * itself only ever carries `redacted`.
 *
 * @example
 * ```ts
 * const originals = new Map<string, unknown>();
 * const pii = redactPii({
 *   onRedacted: ({ toolCall, where, original }: RedactedToolValue) => {
 *     if (where === 'result') originals.set(toolCall.toolCallId, original);
 *   },
 * });
 * ```
 */
export interface RedactedToolValue {
  /** The tool call whose arguments or result were redacted. */
  readonly toolCall: ToolCallInfo;
  /**
   * `'arguments'`: before the tool ran; `'result'`: before the model reads
   * it; `'error'`: the error the tool threw, before the model, the response
   * messages and the UI read its text.
   */
  readonly where: 'arguments' | 'result' | 'error';
  /** The value as it was (the same object, untouched). */
  readonly original: unknown;
  /** The redacted copy that replaces it. */
  readonly redacted: unknown;
  /** The run the call belongs to (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The run's trusted `runtimeContext` (e.g. to file the original under a user). */
  readonly runtimeContext: Context;
}

/**
 * A handler that redacts tool arguments (`beforeToolCall`), tool results
 * (`afterToolCall`) and the errors tools throw (`redactToolError`), plus the
 * {@link Redactor} with the same rules for the model's own text. Register
 * both: the handler in `handlers`, the redactor in `redactors`.
 *
 * @example
 * ```ts
 * const secrets: RedactionHandler = redactSecrets();
 * const interventions = createInterventions({ handlers: [secrets], redactors: [secrets.redactor] });
 * ```
 */
export interface RedactionHandler extends InterventionHandlerLike, ToolErrorRedacting {
  /** Redacts the model's streamed and final text with the same rules. */
  readonly redactor: Redactor;
  beforeToolCall(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}

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

const PII_LABELS: Readonly<Record<PiiKind, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  'credit-card': '[CREDIT_CARD]',
  ip: '[IP_ADDRESS]',
};

/** The order rules run in: card numbers last, so their digit runs never swallow part of another value. */
const PII_ORDER: readonly PiiKind[] = ['ssn', 'email', 'ip', 'phone', 'credit-card'];

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
export function redactPii({
  name = 'redact-pii',
  kinds = PII_ORDER,
  replacement,
  lookahead,
  onRedacted,
}: RedactPiiOptions = {}): RedactionHandler {
  const label = (match: string, kind: PiiKind): string =>
    typeof replacement === 'function' ? replacement(match, kind) : (replacement ?? PII_LABELS[kind]);
  const selected = new Set(kinds);
  const rules = PII_ORDER.filter((kind) => selected.has(kind))
    .flatMap((kind) => piiRules(kind, label))
    .map((rule) => (lookahead === undefined ? rule : { ...rule, lookahead }));
  return createRedactionHandler({ name, rules, onRedacted });
}

/**
 * Builds a {@link RedactionHandler} from your own rules: the engine behind
 * {@link redactPii} and {@link redactSecrets}. Rules apply to every string in
 * tool arguments, results and thrown errors (object keys included) and to the
 * model's text.
 *
 * @param options.sensitiveKeys Object keys whose string values are replaced
 * whole (`'[REDACTED]'`), whatever they contain, e.g. `/password$/i`.
 *
 * @example
 * ```ts
 * const employeeIds = createRedactionHandler({
 *   name: 'employee-ids',
 *   rules: [{ pattern: /\bEMP-\d{6}\b/, replacement: '[EMPLOYEE]' }],
 *   lookahead: 16,
 * });
 * const interventions = createInterventions({ handlers: [employeeIds], redactors: [employeeIds.redactor] });
 * ```
 */
export function createRedactionHandler({
  name,
  rules,
  lookahead = 64,
  sensitiveKeys,
  onRedacted,
}: {
  readonly name: string;
  readonly rules: readonly RedactionRule[];
  readonly lookahead?: number;
  readonly sensitiveKeys?: RegExp | undefined;
  readonly onRedacted?: ((value: RedactedToolValue) => void | PromiseLike<void>) | undefined;
}): RedactionHandler {
  const redactor = createRedactor({ name, rules, lookahead });
  // a test on a `g` or `y` regex is stateful: use a copy without those flags
  const keys = sensitiveKeys === undefined ? undefined : new RegExp(sensitiveKeys.source, sensitiveKeys.flags.replace(/[gy]/g, ''));

  /** `outcome` for a redacted value, after telling `onRedacted` (if any). */
  const report = <OUTCOME>(
    outcome: OUTCOME,
    value: Omit<RedactedToolValue, 'runId' | 'runtimeContext'>,
    { runId, runtimeContext }: Pick<RedactedToolValue, 'runId' | 'runtimeContext'>,
  ): Awaitable<OUTCOME> => {
    if (onRedacted === undefined) return outcome;
    return Promise.resolve(onRedacted({ ...value, runId, runtimeContext })).then(() => outcome);
  };

  return {
    name,
    redactor,
    beforeToolCall(event) {
      const original = event.toolCall.input;
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return InterventionActions.proceed();
      const action = InterventionActions.transform<BeforeToolCallEvent>((draft) => {
        draft.toolCall.input = redacted;
      });
      return report(action, { toolCall: event.toolCall, where: 'arguments', original, redacted }, event);
    },
    afterToolCall(event) {
      const original = event.result;
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return InterventionActions.proceed();
      const action = InterventionActions.transform<AfterToolCallEvent>((draft) => {
        draft.result = redacted;
      });
      return report(action, { toolCall: event.toolCall, where: 'result', original, redacted }, event);
    },
    redactToolError(original, details: ToolErrorDetails) {
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return original;
      return report(redacted, { toolCall: details.toolCall, where: 'error', original, redacted }, details);
    },
  };
}

/** The rules of one kind of personal data. */
function piiRules(kind: PiiKind, label: (match: string, kind: PiiKind) => string): RedactionRule[] {
  switch (kind) {
    case 'email':
      return [
        {
          pattern: /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}/g,
          replacement: (match) => label(match, kind),
          lookahead: 128,
        },
      ];
    case 'phone':
      return [
        // North American, with separators: 415-555-2671, (415) 555 2671, +1 415.555.2671
        {
          pattern: /(?<![\w+])(?:\+?1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d)/g,
          replacement: (match) => label(match, kind),
          lookahead: 24,
        },
        // international, with a leading +: +44 20 7946 0958, +33 1 23 45 67 89
        {
          pattern: /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)/g,
          replacement: (match) => redactPhoneNumber(match, (phone) => label(phone, kind)),
          lookahead: 48,
        },
      ];
    case 'ssn':
      return [{ pattern: /(?<!\d)\d{3}([- ])\d{2}\1\d{4}(?!\d)/g, replacement: (match) => label(match, kind), lookahead: 16 }];
    case 'credit-card':
      return [
        {
          // a run of digit groups (cards are looked for inside it)
          pattern: /\d(?:[ -]?\d){12,79}/g,
          replacement: (match) => redactCardNumbers(match, (card) => label(card, kind)),
          lookahead: 32,
        },
      ];
    case 'ip':
      return [
        {
          pattern: /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\.?\d)/g,
          replacement: (match) => label(match, kind),
          lookahead: 20,
        },
        {
          pattern:
            /(?<![\w:])(?:(?:[A-Fa-f0-9]{1,4}:){7}[A-Fa-f0-9]{1,4}|(?:[A-Fa-f0-9]{1,4}:){1,7}:(?:[A-Fa-f0-9]{1,4}(?::[A-Fa-f0-9]{1,4}){0,6})?|::[A-Fa-f0-9]{1,4}(?::[A-Fa-f0-9]{1,4}){0,6})(?![\w:])/g,
          replacement: (match) => label(match, kind),
          lookahead: 48,
        },
      ];
  }
}

/**
 * Replaces every card number in a run of digit groups: each span of whole
 * groups that is a card (13–19 digits, issuer digit 2–6, Luhn-valid) is
 * redacted, overlapping spans merged. A card next to other numbers (an SSN
 * before it, a security code after it) is still found; more is redacted,
 * never less. No card: `match` unchanged.
 */
function redactCardNumbers(match: string, replace: (card: string) => string): string {
  const groups = [...match.matchAll(/\d+/g)].map((group) => ({
    start: group.index,
    end: group.index + group[0].length,
    digits: group[0],
  }));
  const inCard = groups.map(() => false);
  for (let first = 0; first < groups.length; first++) {
    let digits = '';
    for (let last = first; last < groups.length && digits.length <= 19; last++) {
      digits += groups[last]?.digits ?? '';
      if (digits.length >= 13 && digits.length <= 19 && isCardNumber(digits)) inCard.fill(true, first, last + 1);
    }
  }
  let result = '';
  let copied = 0;
  for (let first = 0; first < groups.length; first++) {
    if (!inCard[first]) continue;
    let last = first;
    while (inCard[last + 1]) last++;
    const start = groups[first]?.start ?? 0;
    const end = groups[last]?.end ?? start;
    result += `${match.slice(copied, start)}${replace(match.slice(start, end))}`;
    copied = end;
    first = last;
  }
  return copied === 0 ? match : `${result}${match.slice(copied)}`;
}

/**
 * Redacts the longest leading part of `match` (a `+` and digit groups) that
 * has 8–15 digits, the length of an international number; the groups after
 * it (another number that followed) are left for the other rules.
 */
function redactPhoneNumber(match: string, replace: (phone: string) => string): string {
  let digits = 0;
  let end: number | undefined;
  for (const group of match.matchAll(/\d+/g)) {
    digits += group[0].length;
    if (digits > 15) break;
    if (digits >= 8) end = group.index + group[0].length;
  }
  return end === undefined ? match : `${replace(match.slice(0, end))}${match.slice(end)}`;
}

/** Whether `digits` starts like a payment card (2–6) and passes the Luhn check. */
function isCardNumber(digits: string): boolean {
  if (!/^[2-6]/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
