import { knownOptions } from '../util/known-options.ts';
import type { RedactionStream } from './redaction-stream.ts';
import { type CompiledRule, replaceRule, streamRule } from './stream-rule.ts';

/**
 * One thing to redact: every match of `pattern` is replaced.
 *
 * @example
 * ```ts
 * const email: RedactionRule = { pattern: /[\w.+-]+@[\w-]+\.[\w.]+/, replacement: '[email]' };
 * const masked: RedactionRule = { pattern: /\b\d{16}\b/, replacement: (card) => `****${card.slice(-4)}` };
 * const token: RedactionRule = { pattern: /(?<=token=)[A-Za-z0-9]{12,}/, lookahead: 24 };
 * ```
 */
export interface RedactionRule {
  /** What to find (lookbehinds, lookaheads, `\b`, `^` and `$` included). The `g` flag is added if missing. */
  readonly pattern: RegExp;
  /** The text that replaces a match (default `[REDACTED]`), or a function of the match. */
  readonly replacement?: string | ((match: string) => string);
  /**
   * How many characters around a position decide whether a match starts
   * there: at least the length a match may have before it is complete, and
   * the longest lookbehind or lookahead. A stream holds back this many
   * characters for the rule (more only while a match is still growing).
   * Default: the redactor's `lookahead`.
   */
  readonly lookahead?: number;
}

/**
 * Redacts model text, whole or as it streams. Streamed, the text comes out
 * exactly as `redact` gives it for the whole text, whatever the chunking: it
 * holds back at most `lookahead` characters at the end of the text seen so
 * far (more only while a match is still growing), so a secret split across
 * any number of chunks is never released before it is redacted.
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
  /** How many trailing characters a stream holds back while nothing matches (the sum of its rules' lookaheads). */
  readonly lookahead: number;
  /** Redacts a whole text. */
  redact(text: string): string;
  /** A session for one streamed text block. */
  stream(): RedactionStream;
}

/**
 * What {@link createRedactor} takes.
 *
 * @inline
 */
interface RedactorOptions {
  readonly name: string;
  readonly rules: readonly RedactionRule[];
  readonly lookahead?: number;
}

const REDACTOR_OPTIONS = knownOptions<RedactorOptions>({ name: true, rules: true, lookahead: true });
const REDACTION_RULE = knownOptions<RedactionRule>({ pattern: true, replacement: true, lookahead: true });

/**
 * Creates a {@link Redactor} from rules. A whole text is redacted rule by
 * rule, in order (each rule reads the text the rules before it left). A
 * stream gives exactly the same text, whatever the chunking: each rule
 * works on the text the rules before it released, and holds back what it
 * cannot decide yet.
 *
 * @param options The redactor's name, its rules, and their default lookahead.
 * @param options.lookahead The default lookahead of each rule (64): how many
 * characters around a position decide whether a match starts there, and so
 * how many trailing characters a stream holds back per rule. Make it at least
 * the length a match may have before it is complete (and the longest
 * lookbehind or lookahead a rule uses).
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
export function createRedactor(options: RedactorOptions): Redactor {
  REDACTOR_OPTIONS.check(options, `createRedactor "${options.name}"`);
  const { name, rules, lookahead = 64 } = options;
  checkLookahead(name, lookahead);
  const compiled = rules.map((rule) => compileRule(name, rule, lookahead));

  return {
    name,
    lookahead: compiled.reduce((total, rule) => total + rule.lookahead, 0),
    redact: (text) => compiled.reduce((result, rule) => replaceRule(rule, result), text),
    stream() {
      const sessions = compiled.map(streamRule);
      return {
        push: (delta) => sessions.reduce((text, session) => session.push(text), delta),
        flush: () => sessions.reduce((text, session) => session.push(text) + session.flush(), ''),
      };
    },
  };
}

function compileRule(name: string, rule: RedactionRule, fallback: number): CompiledRule {
  REDACTION_RULE.check(rule, `createRedactor "${name}" rule`);
  const { pattern, replacement = '[REDACTED]', lookahead } = rule;
  if (lookahead !== undefined) checkLookahead(name, lookahead);
  return {
    // a copy: the rule's own regex (shared, maybe global) keeps its lastIndex
    pattern: new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
    replace: typeof replacement === 'string' ? () => replacement : replacement,
    lookahead: lookahead ?? fallback,
  };
}

function checkLookahead(name: string, lookahead: number): void {
  if (!Number.isInteger(lookahead) || lookahead < 0) {
    throw new TypeError(`Redactor "${name}": lookahead must be a non-negative integer, received ${String(lookahead)}.`);
  }
}
