import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { Approvers } from '../actions/intervention-actions.ts';
import { toBase64 } from '../data/base64.ts';
import { fromBase64 } from '../data/from-base64.ts';
import { sha256 } from '../data/stable-json.ts';
import type { GuideFeedback } from '../handlers/verdict.ts';
import { canonicalJson } from './approval-signature.ts';
import type { ApprovalSecret } from './approval-state.ts';

/**
 * Who asked a handler's confirm, and when: the trusted runtime context of
 * the request that asked (as JSON carries it) and the time it was asked.
 * An approved call runs with that context, not the approver's, and the
 * confirm's expiry counts from `askedAt`.
 */
export interface ApprovalPin {
  readonly asker: Readonly<Record<string, unknown>>;
  readonly askedAt: number;
  /**
   * What the confirms asked of the answer when they asked (as data: a
   * predicate is kept as `allow: true`, evaluated only when a handler asks
   * again on resume); the answer is held to it when no handler asks again.
   */
  readonly terms?: ConfirmTerms | undefined;
  /** The feedback of the guides the confirm outranked, shown with the request: a refusal gives it to the model with the person's reason. */
  readonly guidance?: readonly GuideFeedback[] | undefined;
}

/** The call a pin is sealed to: the one its approval request was made for. */
export interface PinnedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const INFO = encoder.encode('ai-interventions approval pin v1');
/**
 * Seals a pin to a call with AES-GCM under a key derived (HKDF-SHA256) from
 * the approval secret: nobody without the secret can read it, change it or
 * move it to another call (the call's id, tool and arguments are its
 * additional data). Returns the token the request's signature carries.
 */
export async function sealPin(secret: ApprovalSecret, pin: ApprovalPin, call: PinnedCall): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(pinJson(pin));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: await boundTo(call) }, await keyOf(secret), plain);
  const bytes = new Uint8Array(iv.length + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), iv.length);
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/g, '');
}

/** The pin a token seals to `call`, or `undefined` when the secret does not open it for that call (forged, changed, moved). */
export async function openPin(secret: ApprovalSecret, token: string, call: PinnedCall): Promise<ApprovalPin | undefined> {
  try {
    const bytes = fromBase64(token);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: await boundTo(call) },
      await keyOf(secret),
      bytes.slice(12),
    );
    return parsePin(decoder.decode(plain));
  } catch {
    return undefined;
  }
}

/** A pin as JSON carries it: the asker's runtime context without what JSON cannot hold. */
export function pinJson(pin: ApprovalPin): string {
  const terms = pin.terms === undefined ? undefined : { ...pin.terms, approvers: pin.terms.approvers.map(pinnedRule) };
  const { guidance } = pin;
  return JSON.stringify({
    asker: asJson(pin.asker),
    askedAt: pin.askedAt,
    ...(terms === undefined ? {} : { terms }),
    ...(guidance === undefined ? {} : { guidance }),
  });
}

/** A rule as a pin keeps it: data only (a predicate as `allow: true`, a mark that one was there). */
function pinnedRule({ allow, ...rule }: Approvers): Record<string, unknown> {
  return allow === undefined ? rule : { ...rule, allow: true };
}

/** What a pinned rule's predicate is: it admits nobody (only a handler asking again brings the real one back). */
const PINNED_PREDICATE = () => false;

/** A pin read back from {@link pinJson}; `undefined` when it is not one. */
export function parsePin(json: string | undefined): ApprovalPin | undefined {
  try {
    const pin =
      json === undefined
        ? undefined
        : (JSON.parse(json) as { asker?: unknown; askedAt?: unknown; terms?: ConfirmTerms; guidance?: GuideFeedback[] });
    if (pin === undefined || typeof pin.askedAt !== 'number' || pin.asker === null || typeof pin.asker !== 'object') return undefined;
    const terms =
      pin.terms === undefined
        ? undefined
        : {
            ...pin.terms,
            approvers: pin.terms.approvers.map((rule) => ((rule.allow as unknown) === true ? { ...rule, allow: PINNED_PREDICATE } : rule)),
          };
    const guidance = Array.isArray(pin.guidance) ? pin.guidance : undefined;
    return {
      asker: pin.asker as Record<string, unknown>,
      askedAt: pin.askedAt,
      ...(terms === undefined ? {} : { terms }),
      ...(guidance === undefined ? {} : { guidance }),
    };
  } catch {
    return undefined;
  }
}

async function keyOf(secret: ApprovalSecret): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : (secret as Uint8Array<ArrayBuffer>);
  const base = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: INFO },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function boundTo({ toolCallId, toolName, input }: PinnedCall): Promise<Uint8Array<ArrayBuffer>> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(input)));
  return encoder.encode(JSON.stringify(['ai-interventions-approval-pin-v1', toolCallId, toolName, toBase64(new Uint8Array(digest))]));
}

/** A runtime context as JSON carries it: what JSON cannot (functions, bigints, cycles) is left out. */
function asJson(context: Readonly<Record<string, unknown>>): unknown {
  const seen = new WeakSet<object>();
  return JSON.parse(
    JSON.stringify(context, (_key, value: unknown) => {
      if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') return undefined;
      if (value !== null && typeof value === 'object') {
        if (seen.has(value)) return undefined;
        seen.add(value);
      }
      return value;
    }) ?? '{}',
  );
}

/** The name a call's asker is kept under in the ledger: its id, tool and arguments, hashed. */
export function callKey({ toolCallId, toolName, input }: PinnedCall): Promise<string> {
  return sha256(canonicalJson([toolCallId, toolName, input]));
}
