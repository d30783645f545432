import { InvalidToolApprovalSignatureError, type StreamTextTransform, type ToolSet } from 'ai';
import { ApprovalSecretRequiredError } from '../errors/approval-secret-required-error.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { CallOptions } from '../sdk/call-options.ts';

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
export function signsWithGeneratedSecret(snapshot: RuntimeSnapshot, options: CallOptions): boolean {
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
