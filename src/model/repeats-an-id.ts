import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';

/** Whether a client call repeats the id of a call before it (a response has few calls: no set). */
export function repeatsAnId(content: LanguageModelV4GenerateResult['content']): boolean {
  for (let index = 0; index < content.length; index++) {
    const part = content[index];
    if (part?.type !== 'tool-call' || part.providerExecuted === true) continue;
    for (let before = 0; before < index; before++) {
      const earlier = content[before];
      if (earlier?.type === 'tool-call' && earlier.toolCallId === part.toolCallId) return true;
    }
  }
  return false;
}
