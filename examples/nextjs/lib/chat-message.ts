import type { InterventionUIMessage } from 'ai-interventions/client';

/**
 * What the server says about a message: who sent a user message (from the
 * session, never the client), and whether an answer was stopped before it
 * ended.
 */
export interface ChatMetadata {
  readonly userId?: string;
  readonly stopped?: boolean;
}

/** A message of this chat: the runtime's decisions as data parts, and the server's metadata. */
export type ChatMessage = InterventionUIMessage<ChatMetadata>;

/** A chat id: what the URL and the store accept. */
export const CHAT_ID = /^[A-Za-z0-9_-]{1,64}$/;
