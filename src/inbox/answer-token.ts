import { toBase64 } from '../data/base64.ts';
import { fromBase64 } from '../data/from-base64.ts';

/** The runtime's approval secret. */
type ApprovalSecret = string | Uint8Array;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DOMAIN = 'ai-interventions inbox answer token v1\n';

/** What an answer token carries: the request it answers, the person it answers as, and until when. */
export interface AnswerTokenClaims {
  readonly id: string;
  readonly person: Readonly<Record<string, unknown>>;
  readonly expiresAt: number;
}

/**
 * A token that lets `person` answer the request `id` until `expiresAt`:
 * its claims as base64url JSON, then an HMAC-SHA256 of them under the
 * runtime's approval secret (kept apart from the SDK's signatures by a
 * domain prefix).
 */
export async function signAnswerToken(secret: ApprovalSecret, claims: AnswerTokenClaims): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(claims)));
  return `${body}.${base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret), encoder.encode(DOMAIN + body))))}`;
}

/** The claims of a token one of `secrets` signed, for request `id`, not expired at `now`; `undefined` otherwise. */
export async function openAnswerToken(
  secrets: readonly ApprovalSecret[],
  token: string,
  id: string,
  now: number,
): Promise<AnswerTokenClaims | undefined> {
  const [body, mac, extra] = token.split('.');
  if (body === undefined || mac === undefined || extra !== undefined) return undefined;
  let macBytes: Uint8Array<ArrayBuffer>;
  let claims: AnswerTokenClaims;
  try {
    macBytes = fromBase64(mac) as Uint8Array<ArrayBuffer>;
    claims = JSON.parse(decoder.decode(fromBase64(body))) as AnswerTokenClaims;
  } catch {
    return undefined;
  }
  // one token per signature: base64 decoding ignores a signature's last bits and padding, which would let a changed token pass
  if (base64url(macBytes) !== mac) return undefined;
  let signed = false;
  for (const secret of secrets) {
    if (await crypto.subtle.verify('HMAC', await keyOf(secret), macBytes, encoder.encode(DOMAIN + body))) signed = true;
  }
  if (!signed || claims.id !== id || typeof claims.expiresAt !== 'number' || claims.expiresAt <= now) return undefined;
  if (claims.person === null || typeof claims.person !== 'object') return undefined;
  return claims;
}

function keyOf(secret: ApprovalSecret): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : (secret as Uint8Array<ArrayBuffer>);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

function base64url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/g, '');
}
