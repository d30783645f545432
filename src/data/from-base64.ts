/** Base64 read as the AI SDK reads it (`convertBase64ToUint8Array`), on `atob`; written as `base64.ts` says. */

/** The bytes of base64 or base64url text; throws what `atob` throws on anything else. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
