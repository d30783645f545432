import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * The stream parts that describe one content item of a response: how a
 * response a hook or handler wrote (or changed) is streamed. `id` names a
 * text or reasoning block (the provider's own id when the item replaces one).
 */
export function contentToParts(part: LanguageModelV4Content, id: string): LanguageModelV4StreamPart[] {
  const metadata = 'providerMetadata' in part && part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
  switch (part.type) {
    case 'text':
      return [
        { type: 'text-start', id, ...metadata },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      ];
    case 'reasoning':
      return [
        { type: 'reasoning-start', id, ...metadata },
        { type: 'reasoning-delta', id, delta: part.text },
        { type: 'reasoning-end', id },
      ];
    case 'tool-call':
      return part.providerExecuted === true ? [part] : [...toolInputParts(part), part];
    default:
      return [part];
  }
}

/** The argument parts of a client tool call, streamed whole. */
export function toolInputParts(call: Extract<LanguageModelV4Content, { type: 'tool-call' }>): LanguageModelV4StreamPart[] {
  return [
    {
      type: 'tool-input-start',
      id: call.toolCallId,
      toolName: call.toolName,
      ...(call.dynamic === undefined ? {} : { dynamic: call.dynamic }),
    },
    { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
    { type: 'tool-input-end', id: call.toolCallId },
  ];
}
