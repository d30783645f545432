/**
 * One thing to redact: every match of `pattern` is replaced.
 *
 * @example
 * ```ts
 * const email: RedactionRule = { pattern: /[\w.+-]+@[\w-]+\.[\w.]+/, replacement: '[email]' };
 * const masked: RedactionRule = { pattern: /\b\d{16}\b/, replacement: (card) => `****${card.slice(-4)}` };
 * ```
 */
export interface RedactionRule {
  /** What to find. The `g` flag is added if missing. */
  readonly pattern: RegExp;
  /** The text that replaces a match (default `[REDACTED]`), or a function of the match. */
  readonly replacement?: string | ((match: string) => string);
}

/**
 * Redacts model text, whole or as it streams. Streaming, it holds back at
 * most `lookahead` characters at the end of the text seen so far (more only
 * while a match is still growing), so a secret split across any number of
 * chunks is never released before it is redacted.
 *
 * @example
 * ```ts
 * const ssn = createRedactor({ name: 'ssn', rules: [{ pattern: /\b\d{3}-\d{2}-\d{4}\b/, replacement: '[SSN]' }] });
 * ssn.redact('My SSN is 123-45-6789.'); // 'My SSN is [SSN].'
 * const interventions = createInterventions({ redactors: [ssn] });
 * ```
 */
export interface Redactor {
  readonly name: string;
  /** How many trailing characters a stream holds back (the longest match that can still be incomplete). */
  readonly lookahead: number;
  /** Redacts a whole text. */
  redact(text: string): string;
  /** A session for one streamed text block. */
  stream(): RedactionStream;
}

/**
 * The incremental side of a {@link Redactor}: feed it deltas, it returns the
 * text that is safe to release now; `flush` releases the rest at the end.
 *
 * @example
 * ```ts
 * const redactor = createRedactor({ name: 'ssn', rules: [{ pattern: /\b\d{3}-\d{2}-\d{4}\b/, replacement: '[SSN]' }] });
 * const session = redactor.stream();
 * const out = session.push('My SSN is 123-4') + session.push('5-6789.') + session.flush();
 * // out === 'My SSN is [SSN].'
 * ```
 */
export interface RedactionStream {
  push(delta: string): string;
  flush(): string;
}

/**
 * Creates a {@link Redactor} from rules.
 *
 * @param options.lookahead Characters held back while streaming (default 64).
 * Make it at least the length a match may have before it is complete.
 *
 * @example
 * ```ts
 * const secrets = createRedactor({
 *   name: 'api-keys',
 *   rules: [{ pattern: /sk-[A-Za-z0-9]{20,}/, replacement: '[API KEY]' }],
 *   lookahead: 32,
 * });
 * ```
 */
export function createRedactor({
  name,
  rules,
  lookahead = 64,
}: {
  readonly name: string;
  readonly rules: readonly RedactionRule[];
  readonly lookahead?: number;
}): Redactor {
  if (!Number.isInteger(lookahead) || lookahead < 0) {
    throw new TypeError(`Redactor "${name}": lookahead must be a non-negative integer, received ${String(lookahead)}.`);
  }
  const compiled = rules.map(({ pattern, replacement = '[REDACTED]' }) => ({
    pattern: pattern.flags.includes('g') ? pattern : new RegExp(pattern.source, `${pattern.flags}g`),
    replacement,
  }));

  const redact = (text: string): string => {
    let result = text;
    for (const { pattern, replacement } of compiled) {
      pattern.lastIndex = 0;
      result =
        typeof replacement === 'string'
          ? result.replace(pattern, () => replacement)
          : result.replace(pattern, (match) => replacement(match));
    }
    return result;
  };

  /** Where `text` can be cut: not inside a match, not before a match that reaches its end. */
  const safeCut = (text: string): number => {
    let cut = Math.max(0, text.length - lookahead);
    if (cut === 0) return 0;
    const intervals: Array<[number, number]> = [];
    for (const { pattern } of compiled) {
      pattern.lastIndex = 0;
      for (const match of text.matchAll(pattern)) {
        if (match[0].length === 0) continue;
        intervals.push([match.index, match.index + match[0].length]);
      }
    }
    let moved = true;
    while (moved) {
      moved = false;
      for (const [start, end] of intervals) {
        // inside a match, or a match that may still grow past the end
        if (start < cut && (end > cut || end === text.length)) {
          cut = start;
          moved = true;
        }
      }
    }
    return cut;
  };

  return {
    name,
    lookahead,
    redact,
    stream() {
      let pending = '';
      return {
        push(delta) {
          pending += delta;
          const cut = safeCut(pending);
          if (cut === 0) return '';
          const released = redact(pending.slice(0, cut));
          pending = pending.slice(cut);
          return released;
        },
        flush() {
          const released = redact(pending);
          pending = '';
          return released;
        },
      };
    },
  };
}
