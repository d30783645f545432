/**
 * JSON with every object's keys sorted, so equal values give equal text:
 * bytes as hex (`{"$bytes":"…"}`), URLs and dates as strings, bigints as
 * decimal strings; `undefined`, functions and symbols are left out as
 * `JSON.stringify` leaves them. Throws `RangeError` on a cycle.
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (value instanceof Uint8Array) return JSON.stringify({ $bytes: hex(value) });
  if (value instanceof ArrayBuffer) return JSON.stringify({ $bytes: hex(new Uint8Array(value)) });
  if (value instanceof URL) return JSON.stringify(value.href);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : stableJson(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const fields = Object.entries(value)
      .filter(([, field]) => field !== undefined && typeof field !== 'function' && typeof field !== 'symbol')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, field]) => `${JSON.stringify(name)}:${stableJson(field)}`);
    return `{${fields.join(',')}}`;
  }
  return 'null'; // undefined, functions, symbols: as JSON leaves them
}

/** Lower-case hex of `bytes`. */
export function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** The digest of `text` (UTF-8) with `algorithm` (Web Crypto's name), as lower-case hex. */
export async function digestHex(algorithm: 'SHA-1' | 'SHA-256', text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest(algorithm, new TextEncoder().encode(text))));
}

/** The SHA-256 of `text` (UTF-8), as lower-case hex. */
export function sha256(text: string): Promise<string> {
  return digestHex('SHA-256', text);
}
