/**
 * Where the chats live: the server keeps each conversation, so a reload, or
 * another person's browser (a manager's), shows the same one, with its
 * pending requests. In memory by default, one per server process (on
 * `globalThis`, so `next dev` reloads keep it); `ChatStore` is all a shared
 * one (Redis, a database) has to implement.
 */
import type { ChatMessage } from './chat-message';

/** A stored conversation: its messages, and a version that grows with every save. */
export interface StoredChat {
  readonly messages: readonly ChatMessage[];
  readonly version: number;
}

export interface ChatStore {
  /** The conversation, or `undefined` for a chat nobody wrote to yet. */
  load(chatId: string): Promise<StoredChat | undefined>;
  /**
   * Saves the conversation if it is still at `version` (0: a new chat);
   * returns the new version, or `undefined` when someone saved it first.
   */
  save(chatId: string, messages: readonly ChatMessage[], version: number): Promise<number | undefined>;
}

/** A store in this process's memory (it forgets everything on restart; keeps the last `maxChats`). */
export function createMemoryChatStore({ maxChats = 1_000 } = {}): ChatStore {
  const chats = new Map<string, StoredChat>();
  return {
    async load(chatId) {
      const chat = chats.get(chatId);
      return chat === undefined ? undefined : structuredClone(chat);
    },
    async save(chatId, messages, version) {
      if ((chats.get(chatId)?.version ?? 0) !== version) return undefined;
      chats.delete(chatId);
      chats.set(chatId, { messages: structuredClone(messages), version: version + 1 });
      for (const oldest of chats.keys()) {
        if (chats.size <= maxChats) break;
        chats.delete(oldest);
      }
      return version + 1;
    },
  };
}

const KEY = Symbol.for('ai-interventions-example.chat-store');

/** The process's store. */
export function chatStore(): ChatStore {
  const store = globalThis as typeof globalThis & { [KEY]?: ChatStore };
  return (store[KEY] ??= createMemoryChatStore());
}
