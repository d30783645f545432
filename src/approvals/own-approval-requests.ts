import type { StreamTextTransform, ToolSet } from 'ai';
import type { ApprovalState } from './approval-state.ts';

/**
 * The SDK signs every approval request of a call with the one secret it is
 * given; the runtime gives it its own only to bind its confirms. So the
 * signature stays on the requests a handler's `confirm` asked for, and the
 * app's own requests (`needsApproval`, its `toolApproval`) read exactly as
 * the raw SDK writes them without a secret. A request whose call is in
 * `requests.foreign` (made in this run, not by a confirm)
 * loses it, wherever it is read: the stream parts (and so the UI message
 * stream), each step's content and response
 * messages (and so the result, its `responseMessages` and `onEnd`), and
 * the history each next step starts with (`prepareStep`, `onStepStart`).
 */
export function stripForeignSignatures(
  state: ApprovalState,
  step: { readonly content?: unknown; readonly response?: { readonly messages?: unknown } },
): void {
  if (!state.signs || state.requests.foreign.size === 0) return;
  if (Array.isArray(step.content)) for (const part of step.content) strip(state, part);
  stripForeignSignaturesIn(state, step.response?.messages);
}

/**
 * {@link stripForeignSignatures} on the messages of a history from `from`
 * on (the messages a step starts with carry the last step's requests; the
 * caller's own messages before `from` are never touched).
 */
export function stripForeignSignaturesIn(state: ApprovalState, messages: unknown, from = 0): void {
  // nothing to look for (the common case): no request of this run lost its signature
  if (!state.signs || state.requests.foreign.size === 0 || !Array.isArray(messages)) return;
  for (let index = from; index < messages.length; index++) {
    const content = (messages[index] as { readonly content?: unknown }).content;
    if (Array.isArray(content)) for (const part of content) strip(state, part);
  }
}

/** The `streamText` transform that does {@link stripForeignSignatures} on the stream's parts. */
export function foreignSignatureTransform(state: ApprovalState): StreamTextTransform<ToolSet> {
  return () =>
    new TransformStream({
      transform(part, controller) {
        strip(state, part);
        controller.enqueue(part);
      },
    });
}

function strip(state: ApprovalState, part: unknown): void {
  if (part === null || typeof part !== 'object') return;
  const request = part as { type?: unknown; signature?: unknown; toolCallId?: unknown; toolCall?: { toolCallId?: unknown } };
  if (request.type !== 'tool-approval-request' || request.signature === undefined) return;
  const toolCallId = request.toolCallId ?? request.toolCall?.toolCallId;
  const { own, foreign } = state.requests;
  // only a request this run made without a confirm: never one of the caller's history, never a confirm's
  if (typeof toolCallId !== 'string' || !foreign.has(toolCallId) || own.has(toolCallId)) return;
  delete request.signature;
}
