import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { isTypedAnswer } from '../client/approval-answer.ts';
import type { Wording } from '../handlers/wording.ts';
import { deniedText } from './decode-answers.ts';

type Message = LanguageModelV4Prompt[number];
type ToolContent = Extract<Message, { role: 'tool' }>['content'];

/**
 * The request with every typed answer (`approvalAnswer`) still encoded in a
 * denied result decoded, as the wrappers decode them before the SDK reads
 * the history: the model reads the person's words in the runtime's
 * `rejectedCall` wording, never `ai-interventions/approval-answer@1:{...}`.
 * Such results reach a model wrapped with `interventions.middleware` from a
 * plain `generateText` / `streamText` resuming a typed refusal (the SDK
 * writes the response's reason into the call's result itself, and no tool
 * runs). The same request comes back when none is encoded.
 */
export function decodePromptAnswers(request: LanguageModelV4CallOptions, wording: Wording): LanguageModelV4CallOptions {
  // plain loops: every model call reads the whole prompt, and allocates nothing unless an answer is encoded
  let prompt: LanguageModelV4Prompt | undefined;
  for (let index = 0; index < request.prompt.length; index++) {
    const message = request.prompt[index] as Message;
    if (message.role !== 'tool') continue;
    let content: ToolContent | undefined;
    for (let position = 0; position < message.content.length; position++) {
      const part = message.content[position] as ToolContent[number];
      if (part.type !== 'tool-result') continue;
      const { output } = part;
      const encoded = output.type === 'execution-denied' ? output.reason : output.type === 'error-text' ? output.value : undefined;
      if (!isTypedAnswer(encoded)) continue;
      const call = { toolCallId: part.toolCallId, toolName: part.toolName, input: inputOf(request.prompt, part.toolCallId, index) };
      const text = deniedText(encoded, call, wording);
      content ??= [...message.content];
      const decoded =
        output.type === 'execution-denied'
          ? { ...output, reason: text }
          : output.type === 'error-text'
            ? { ...output, value: text }
            : output;
      content[position] = { ...part, output: decoded };
    }
    if (content === undefined) continue;
    prompt ??= [...request.prompt];
    prompt[index] = { ...message, content };
  }
  return prompt === undefined ? request : { ...request, prompt };
}

/** The arguments of the call a result answers: the nearest call with its id before the result's message. */
function inputOf(prompt: LanguageModelV4Prompt, toolCallId: string, before: number): unknown {
  for (let index = before - 1; index >= 0; index--) {
    const message = prompt[index];
    if (message?.role !== 'assistant') continue;
    const call = message.content.findLast((part) => part.type === 'tool-call' && part.toolCallId === toolCallId);
    if (call?.type === 'tool-call') return call.input;
  }
  return undefined;
}
