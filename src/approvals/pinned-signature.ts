/** Between the SDK's signature and the pin in a request's `signature` (base64url has no `.`). */
const SEPARATOR = '.';

/** A request's signature with the pin after the SDK's own. */
export function withPin(signature: string, token: string): string {
  return `${signature}${SEPARATOR}${token}`;
}

/** A request's signature split into the SDK's own and the pin after it, if any. */
export function splitPin(signature: string): { readonly signature: string; readonly token: string | undefined } {
  const at = signature.indexOf(SEPARATOR);
  return at < 0 ? { signature, token: undefined } : { signature: signature.slice(0, at), token: signature.slice(at + 1) };
}
