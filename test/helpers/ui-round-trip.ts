import { readUIMessageStream, type TextStreamPart, type ToolSet, toUIMessageStream, type UIMessage } from 'ai';

/** The assistant message a chat UI (`useChat`) keeps from a `streamText` result's stream, with the id the app gives it. */
export async function assistantMessage(stream: ReadableStream<TextStreamPart<ToolSet>>, id = 'a1'): Promise<UIMessage> {
  let assistant: UIMessage | undefined;
  for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream }) })) assistant = update;
  if (assistant === undefined) throw new Error('no assistant message');
  return { ...assistant, id };
}
