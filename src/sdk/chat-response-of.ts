import type { ChatResponse } from '../hooks/hook-types.ts';

/** What `onChatDone` reports, from a result or an `onEnd` event. */
export function chatResponseOf(result: {
  readonly text: string;
  readonly finishReason: ChatResponse['finishReason'];
  readonly usage: ChatResponse['usage'];
  readonly steps: ChatResponse['steps'];
  readonly responseMessages: ChatResponse['responseMessages'];
}): ChatResponse {
  return {
    text: result.text,
    finishReason: result.finishReason,
    usage: result.usage,
    steps: result.steps,
    responseMessages: result.responseMessages,
  };
}
