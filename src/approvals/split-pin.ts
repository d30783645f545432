import { PIN_SEPARATOR } from './pinned-signature.ts';

/** A request's signature split into the SDK's own and the pin after it (`withPin`), if any. */
export function splitPin(signature: string): { readonly signature: string; readonly token: string | undefined } {
  const at = signature.indexOf(PIN_SEPARATOR);
  return at < 0 ? { signature, token: undefined } : { signature: signature.slice(0, at), token: signature.slice(at + 1) };
}
