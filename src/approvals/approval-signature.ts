import { toBase64 } from '../data/base64.ts';
import { fromBase64 } from '../data/from-base64.ts';

/*
 * The AI SDK's signed approvals, computed with Web Crypto (`crypto.subtle`)
 * exactly as the SDK signs and verifies them (`ai` 7: HMAC-SHA256 over
 * `JSON.stringify(['ai-sdk-tool-approval-v1', approvalId, toolCallId,
 * toolName, <base64url SHA-256 of the canonical JSON of the input>])`, keys
 * sorted), so a call whose arguments a person edited can be signed again and
 * pass the SDK's own check.
 */

const encoder = new TextEncoder();

/** What a signature binds: the approval and the exact call. */
export interface SignedCall {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** Signs an approval request for a call, as the SDK signs `tool-approval-request.signature`. */
export async function signApproval(secret: string | Uint8Array, call: SignedCall): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), await payloadOf(call));
  return toBase64url(new Uint8Array(signature));
}

/** Whether `signature` is the SDK's signature of the call with `secret`. */
export async function verifyApproval(secret: string | Uint8Array, signature: string, call: SignedCall): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(signature);
  } catch {
    return false;
  }
  return crypto.subtle.verify('HMAC', await hmacKey(secret), bytes as Uint8Array<ArrayBuffer>, await payloadOf(call));
}

/** Deterministic JSON: object keys sorted, `undefined` array items as `null` (the SDK's canonical form). */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

async function payloadOf({ approvalId, toolCallId, toolName, input }: SignedCall): Promise<Uint8Array<ArrayBuffer>> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(input)));
  const inputDigest = toBase64url(new Uint8Array(digest));
  return encoder.encode(JSON.stringify(['ai-sdk-tool-approval-v1', approvalId, toolCallId, toolName, inputDigest]));
}

function hmacKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : (secret as Uint8Array<ArrayBuffer>);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/g, '');
}
