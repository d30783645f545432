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
