import type { ApprovalState } from './approval-state.ts';
import { withPin } from './pinned-signature.ts';

/**
 * The requests a run asked, as everyone reads them. A handler's confirm
 * (`requests.own`) carries its pin (who asked, and when: `approval-pin.ts`)
 * after the SDK's signature. The SDK signs every request of a call with the
 * one secret it is given, and the runtime gives it its own only to bind its
 * confirms: so the app's own requests (`needsApproval`, its `toolApproval`:
 * `requests.foreign`) lose the signature, and read exactly as the raw SDK
 * writes them without a secret. Wherever a request is read: the stream
 * parts (and so the UI message stream), each step's content and response
 * messages (and so the result, its `responseMessages` and `onEnd`), and the
 * history each next step starts with (`prepareStep`, `onStepStart`).
 */
export function finishRequests(
  state: ApprovalState,
  step: { readonly content?: unknown; readonly response?: { readonly messages?: unknown } },
): void {
  if (!finishes(state)) return;
  if (Array.isArray(step.content)) for (const part of step.content) finishRequest(state, part);
  finishRequestsIn(state, step.response?.messages);
}

/**
 * {@link finishRequests} on the messages of a history from `from` on (the
 * messages a step starts with carry the last step's requests; the caller's
 * own messages before `from` are never touched).
 */
export function finishRequestsIn(state: ApprovalState, messages: unknown, from = 0): void {
  // nothing to look for (the common case): no request of this run is finished
  if (!finishes(state) || !Array.isArray(messages)) return;
  for (let index = from; index < messages.length; index++) {
    const content = (messages[index] as { readonly content?: unknown }).content;
    if (Array.isArray(content)) for (const part of content) finishRequest(state, part);
  }
}

/** One part, as {@link finishRequests} leaves it: a request this run asked gets its pin, or loses its signature. */
export function finishRequest(state: ApprovalState, part: unknown): void {
  if (part === null || typeof part !== 'object') return;
  const request = part as { type?: unknown; signature?: unknown; toolCallId?: unknown; toolCall?: { toolCallId?: unknown } };
  if (request.type !== 'tool-approval-request' || typeof request.signature !== 'string') return;
  const toolCallId = request.toolCallId ?? request.toolCall?.toolCallId;
  if (typeof toolCallId !== 'string') return;
  const { own, foreign } = state.requests;
  const token = state.pins.get(toolCallId);
  // only a request this run made: never one of the caller's history
  if (own.has(toolCallId)) {
    if (token !== undefined && !request.signature.endsWith(token)) request.signature = withPin(request.signature, token);
    // the request waits in the inbox for the people who answer it, under its approval id (known only now)
    const ask = state.asks?.get(toolCallId);
    const { approvalId } = part as { approvalId?: unknown };
    if (ask !== undefined && typeof approvalId === 'string') {
      state.asks?.delete(toolCallId);
      state.unlisted?.push({ ...ask, approvalId });
    }
  } else if (foreign.has(toolCallId) && state.signs === true) {
    delete request.signature;
  }
}

function finishes(state: ApprovalState): boolean {
  return state.pins.size > 0 || (state.signs === true && state.requests.foreign.size > 0);
}
