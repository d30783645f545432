import type { ToolApprovalRequest } from 'ai';

/**
 * Sets an approval request's `signature`. A `visible` one is an ordinary
 * field, as the SDK writes it; one the runtime adds only for the SDK's own
 * check (an approval the app asked for itself, which the SDK without a
 * secret never signs) is not enumerable: the SDK reads it, while no
 * callback, step, result or copy of the history shows it.
 */
export function setSignature(request: ToolApprovalRequest, signature: string, visible: boolean): void {
  delete request.signature;
  if (visible) request.signature = signature;
  else Object.defineProperty(request, 'signature', { value: signature, enumerable: false, configurable: true, writable: true });
}
