import type { RedactionRule } from './create-redactor.ts';

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

/** What each kind of personal data is replaced with by default. */
export const PII_LABELS: Readonly<Record<PiiKind, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  'credit-card': '[CREDIT_CARD]',
  ip: '[IP_ADDRESS]',
};

/** The order rules run in: card numbers last, so their digit runs never swallow part of another value. */
export const PII_ORDER: readonly PiiKind[] = ['ssn', 'email', 'ip', 'phone', 'credit-card'];

/** The rules of one kind of personal data. */
export function piiRules(kind: PiiKind, label: (match: string, kind: PiiKind) => string): RedactionRule[] {
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
