/**
 * Where the chats live: the server keeps each conversation, so a reload, or
 * another person's browser (a manager's), shows the same one, with its
 * pending requests. In memory by default, one per server process (on
 * `globalThis`, so `next dev` reloads keep it); on the library's `Store`
 * (Redis) when `REDIS_URL` is set, so a restart or another instance finds
 * them. `ChatStore` is all another one (a database) has to implement.
 */
import type { Store } from 'ai-interventions';
import type { ChatMessage } from './chat-message';
import { sharedStore } from './shared-store';

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

const DAY_MS = 24 * 60 * 60_000;

/**
 * Chats on a `Store` shared by every instance (Redis): each version of a
 * conversation is a key of its own, written with the store's atomic
 * `setIfAbsent`, so of two saves at one version exactly one wins, on any
 * instance, and a save is whole or absent (a crash never leaves a chat half
 * saved, or locked). A head key points at the newest version (a hint: a
 * load looks past it for a newer one); the version before the one replaced
 * is deleted, and every key expires `ttlMs` after its last save.
 */
export function createStoreChatStore(store: Store, { ttlMs = DAY_MS, prefix = 'chat:' } = {}): ChatStore {
  const head = (chatId: string) => `${prefix}${chatId}`;
  const at = (chatId: string, version: number) => `${prefix}${chatId}@${version}`;
  return {
    async load(chatId) {
      for (let attempt = 0; attempt < 3; attempt++) {
        let version = Number(await store.get(head(chatId))) || 0;
        let json = version === 0 ? undefined : await store.get(at(chatId, version));
        // a save whose head had not moved yet when this load read it
        for (let next = await store.get(at(chatId, version + 1)); next !== undefined; next = await store.get(at(chatId, version + 1))) {
          version++;
          json = next;
        }
        if (json !== undefined) return { messages: JSON.parse(json) as ChatMessage[], version };
        // none yet, or expired; or saves replaced the version the head named while this load read it: read again
        if (version === 0) return undefined;
      }
      return undefined;
    },
    async save(chatId, messages, version) {
      if (!(await store.setIfAbsent(at(chatId, version + 1), JSON.stringify(messages), { ttlMs }))) return undefined;
      await store.set(head(chatId), String(version + 1), { ttlMs });
      if (version > 1) await store.delete(at(chatId, version - 1));
      return version + 1;
    },
  };
}

const KEY = Symbol.for('ai-interventions-example.chat-store');

/** The process's store: on the shared store when there is one (`REDIS_URL`), else in memory. */
export function chatStore(): ChatStore {
  const kept = globalThis as typeof globalThis & { [KEY]?: ChatStore };
  if (kept[KEY] === undefined) {
    const shared = sharedStore();
    kept[KEY] = shared === undefined ? createMemoryChatStore() : createStoreChatStore(shared);
  }
  return kept[KEY];
}
