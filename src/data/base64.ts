/**
 * Base64 as the AI SDK writes and reads it (`convertUint8ArrayToBase64` /
 * `convertBase64ToUint8Array` of `@ai-sdk/provider-utils`), on `btoa` / `atob`
 * so it runs wherever the SDK does (reading it: `from-base64.ts`, a module of its
 * own so that only the code that reads base64 loads it). Written here because `ai` does not
 * re-export them, and importing them from `@ai-sdk/provider-utils` puts that
 * package's module-level code into every bundle of this library
 * (scripts/size.ts).
 */

/** Bytes per `String.fromCharCode` call: far below any engine's argument limit. */
const CHUNK = 0x8000;

/** The standard, padded base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}
