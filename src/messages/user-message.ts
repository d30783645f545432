import type { UserModelMessage } from 'ai';

/** A user message with one text part. */
export function userMessage(text: string): UserModelMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}
