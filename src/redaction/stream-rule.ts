import type { RedactionStream } from './redaction-stream.ts';

/** One rule as a redactor runs it: a global regex, its replacement, its reach. */
export interface CompiledRule {
  /** The rule's pattern with the `g` flag (a copy: its `lastIndex` is ours). */
  readonly pattern: RegExp;
  readonly replace: (match: string) => string;
  /** How far, in characters, the rule's decision at a position depends on the text around it. */
  readonly lookahead: number;
}

/**
 * Pending text at most this long (plus four times the rule's lookahead) is
 * scanned on every delta; past it, a scan waits until the text grew by a
 * quarter, so a long match that keeps growing (a private key with no END
 * line) costs linear work in total, not quadratic.
 */
const ALWAYS_SCAN = 256;

/** `text` with every match of `rule` replaced: `String.prototype.replace` with a global regex. */
export function replaceRule({ pattern, replace }: CompiledRule, text: string): string {
  pattern.lastIndex = 0;
  return text.replace(pattern, (match: string) => replace(match));
}

/**
 * The incremental form of {@link replaceRule}: the concatenation of what
 * `push` and `flush` return equals `replaceRule(rule, wholeText)` for any
 * chunking, provided the rule's decision at a position depends on at most
 * `lookahead` characters on either side of it (a match growing past the end
 * of the text so far is held until it stops growing).
 *
 * It keeps a window of the input: `lookahead` characters already released
 * (the context lookbehinds, `\b` and `^` read; never emitted again) and the
 * pending rest. Each scan resumes where the last decided position is
 * (`searchFrom`, the `lastIndex` of `replace`'s own loop) and decides:
 *
 * - a match is final when at least `lookahead` characters follow its end
 *   (a lookahead, a `\b` or a greedy quantifier could not change it);
 * - "no match starts here" is final when at least `lookahead` characters
 *   follow the position.
 */
export function streamRule({ pattern, replace, lookahead }: CompiledRule): RedactionStream {
  const { flags } = pattern;
  const unicode = flags.includes('u') || flags.includes('v');
  const sticky = flags.includes('y');
  const behind = Math.max(1, lookahead);
  let window = ''; // the input from `base` on
  let base = 0; // absolute position of window[0]
  let copied = 0; // the input before it has been released
  let searchFrom = 0; // where the next match may start
  let scannedTo = 0; // the end of the input at the last scan
  let stopped = false; // a sticky rule that failed once: `replace` stops there too

  const advance = (index: number): number => {
    if (!unicode) return index + 1;
    const code = window.charCodeAt(index - base);
    return code >= 0xd800 && code <= 0xdbff && index + 1 < base + window.length ? index + 2 : index + 1;
  };

  const release = (until: number): string => {
    if (until <= copied) return '';
    const text = window.slice(copied - base, until - base);
    copied = until;
    if (searchFrom < until) searchFrom = until;
    return text;
  };

  const scan = (final: boolean): string => {
    const end = base + window.length;
    scannedTo = end;
    let out = '';
    let held = end; // where a match that is not final yet starts
    while (!stopped && searchFrom <= end) {
      pattern.lastIndex = searchFrom - base;
      const match = pattern.exec(window);
      if (match === null) {
        if (sticky && (final || searchFrom + lookahead <= end)) stopped = true;
        break;
      }
      const start = base + match.index;
      const stop = start + match[0].length;
      if (!final && stop + lookahead > end) {
        held = start;
        break;
      }
      out += window.slice(copied - base, start - base) + replace(match[0]);
      copied = stop;
      searchFrom = stop === start ? advance(start) : stop;
    }
    out += release(stopped || final ? end : Math.min(held, end - lookahead));
    // keep `behind` released characters as context for the next scan
    const keep = Math.max(base, copied - behind);
    if (keep > base) {
      window = window.slice(keep - base);
      base = keep;
    }
    return out;
  };

  return {
    push(delta) {
      if (delta.length === 0) return '';
      window += delta;
      const end = base + window.length;
      if (stopped) return release(end);
      const pending = end - searchFrom;
      // a long pending text (a growing match) is scanned again only once it grew by a quarter
      if (pending > ALWAYS_SCAN + 4 * lookahead && 4 * (end - scannedTo) < pending) return '';
      return scan(false);
    },
    flush() {
      const out = scan(true);
      window = '';
      base = copied;
      return out;
    },
  };
}
