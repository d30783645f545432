import { AbstractChat, type ChatState, type ChatStatus, type ChatTransport, type UIMessage, type UIMessageChunk } from 'ai';

/** A `ChatState` in memory (what `useChat` keeps in React state). */
class MemoryChatState<UI_MESSAGE extends UIMessage> implements ChatState<UI_MESSAGE> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UI_MESSAGE[] = [];
  pushMessage = (message: UI_MESSAGE) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UI_MESSAGE) => {
    this.messages = this.messages.map((existing, at) => (at === index ? message : existing));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat (`AbstractChat`, what `useChat` runs), without React:
 * each request is answered by `respond` with the chat's messages, and the
 * chat's `onToolCall` is what the app gives `useChat` to run its client-side
 * tools.
 */
export class TestChat<UI_MESSAGE extends UIMessage = UIMessage> extends AbstractChat<UI_MESSAGE> {
  constructor({
    respond,
    onToolCall,
  }: {
    respond: (messages: UI_MESSAGE[]) => PromiseLike<ReadableStream<UIMessageChunk>> | ReadableStream<UIMessageChunk>;
    onToolCall?: (toolCall: { toolCallId: string; toolName: string; input: unknown }) => void;
  }) {
    const transport: ChatTransport<UI_MESSAGE> = {
      sendMessages: async ({ messages }) => respond(messages),
      reconnectToStream: async () => null,
    };
    super({
      transport,
      state: new MemoryChatState<UI_MESSAGE>(),
      onToolCall: onToolCall === undefined ? undefined : ({ toolCall }) => onToolCall(toolCall as never),
    });
  }

  /** The chat's messages now. */
  get all(): UI_MESSAGE[] {
    return this.state.messages;
  }
}
