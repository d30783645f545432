import { InvalidToolApprovalSignatureError, type StreamTextTransform, type ToolSet } from 'ai';
import { ApprovalSecretRequiredError } from '../errors/approval-secret-required-error.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import type { ApprovalSecret } from './approval-state.ts';

/**
 * The shortest `approvalSecret` taken, in bytes (a string's UTF-8): an
 * HMAC-SHA256 key should be at least as long as the hash's output (RFC
 * 2104), and an unset or placeholder variable is caught at creation instead
 * of at the first approval.
 */
export const MIN_APPROVAL_SECRET_BYTES = 32;

/**
 * `secret`, as `createInterventions` takes it as its option `option`: a
 * string or bytes of at least {@link MIN_APPROVAL_SECRET_BYTES} bytes, or
 * an {@link InvalidOptionError} that names the option and says how long it
 * was (never what it was).
 */
export function checkApprovalSecret(secret: unknown, option: string): ApprovalSecret {
  const invalid = (problem: string) =>
    new InvalidOptionError({
      owner: 'createInterventions',
      option,
      message:
        `${option} ${problem}: an approval secret must be a string or bytes of at least ${MIN_APPROVAL_SECRET_BYTES} bytes ` +
        '(e.g. `openssl rand -base64 32`), the same on every instance; leave approvalSecret out for a random one per runtime.',
    });
  let bytes: number;
  if (typeof secret === 'string') bytes = new TextEncoder().encode(secret).length;
  else if (secret instanceof Uint8Array) bytes = secret.length;
  else throw invalid(`is ${secret === null ? 'null' : secret === undefined ? 'not set' : `a ${typeof secret}`}`);
  if (bytes === 0) throw invalid(`is empty${typeof secret === 'string' ? ' (an environment variable that is not set?)' : ''}`);
  if (bytes < MIN_APPROVAL_SECRET_BYTES) throw invalid(`is ${bytes} byte${bytes === 1 ? '' : 's'} long`);
  return secret;
}

/** The runtime's approval keys: `current` signs every new approval; each of `previous` still verifies one it signed. */
export interface ApprovalKeys {
  readonly current: ApprovalSecret;
  readonly previous: readonly ApprovalSecret[];
}

/**
 * The keys of `createInterventions`' `approvalSecret`: one secret, or a
 * list, the current key first, then previous keys that still verify the
 * approvals they signed (a previous entry that is `undefined`, an
 * environment variable that is not set, is left out). Every key is checked
 * by {@link checkApprovalSecret}, naming its entry (`approvalSecret[1]`).
 */
export function approvalKeysOf(option: unknown): ApprovalKeys {
  if (!Array.isArray(option)) return { current: checkApprovalSecret(option, 'approvalSecret'), previous: [] };
  if (option.length === 0) {
    throw new InvalidOptionError({
      owner: 'createInterventions',
      option: 'approvalSecret',
      message: 'approvalSecret is an empty list: give the current key first, then the previous keys that should still verify approvals.',
    });
  }
  const [current, ...rest] = option as unknown[];
  return {
    current: checkApprovalSecret(current, 'approvalSecret[0]'),
    previous: rest.flatMap((key, index) => (key === undefined ? [] : [checkApprovalSecret(key, `approvalSecret[${index + 1}]`)])),
  };
}

/**
 * The approval secret of a runtime created without `approvalSecret`: 32
 * random bytes, so every approval it asks for is signed and bound to the
 * call and its arguments, as with a configured secret. It lives as long as
 * the runtime: another instance, or this one after a restart, cannot verify
 * it (see {@link explainApprovalError}).
 */
export function generateApprovalSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** Whether a call signs and verifies approvals with the runtime's generated secret (none configured, none of its own). */
export function signsWithGeneratedSecret(
  snapshot: { readonly approvalSecretConfigured: boolean },
  options: { readonly experimental_toolApprovalSecret?: unknown },
): boolean {
  return !snapshot.approvalSecretConfigured && options.experimental_toolApprovalSecret === undefined;
}

/**
 * The error the caller sees for `error`, in a call that signs with the
 * runtime's generated secret: the SDK's `InvalidToolApprovalSignatureError`
 * becomes an {@link ApprovalSecretRequiredError} that says why (the approval
 * was made elsewhere, or changed) and what to do (set `approvalSecret`);
 * anything else is returned as is.
 */
export function explainApprovalError(error: unknown): unknown {
  if (!InvalidToolApprovalSignatureError.isInstance(error)) return error;
  return new ApprovalSecretRequiredError({
    approvalId: error.approvalId,
    toolCallId: error.toolCallId,
    signature: /missing signature$/.test(error.message) ? 'missing' : 'invalid',
    cause: error,
  });
}

/** A `streamText` transform giving `error` parts (and so `onError`) the error of {@link explainApprovalError}. */
export const explainApprovalErrors: StreamTextTransform<ToolSet> = () =>
  new TransformStream({
    transform(part, controller) {
      controller.enqueue(part.type === 'error' ? { ...part, error: explainApprovalError(part.error) } : part);
    },
  });
