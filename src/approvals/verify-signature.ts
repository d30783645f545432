import { type SignedCall, verifyApproval } from './approval-signature.ts';
import type { ApprovalState } from './approval-state.ts';

/**
 * Which of the session's keys signed `signature` for `call`: `'current'`,
 * the secret the SDK verifies this call's approvals with; `'previous'`,
 * one of the runtime's previous keys (an `approvalSecret` list), when that
 * secret is the runtime's; `undefined`, none (forged, changed, signed
 * before a restart or elsewhere, or no signature). The one place a session
 * verifies an approval's signature.
 */
export async function verifySignature(
  state: ApprovalState,
  signature: string | undefined,
  call: SignedCall,
): Promise<'current' | 'previous' | undefined> {
  const { secret } = state;
  if (secret === undefined || signature === undefined) return undefined;
  if (await verifyApproval(secret, signature, call)) return 'current';
  // the app's own secret has no previous keys of the runtime's
  if (secret !== state.runtimeSecret) return undefined;
  for (const key of state.previousSecrets) if (await verifyApproval(key, signature, call)) return 'previous';
  return undefined;
}
