/** Between the SDK's signature and the pin in a request's `signature` (base64url has no `.`). */
export const PIN_SEPARATOR = '.';

/** A request's signature with the pin after the SDK's own. */
export function withPin(signature: string, token: string): string {
  return `${signature}${PIN_SEPARATOR}${token}`;
}
