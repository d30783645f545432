import type { ModelMessage } from 'ai';
import { hasTypedAnswers } from './decode-answers.ts';

/**
 * Whether a request's history carries anything an approval session must
 * read: approval responses in its last message (a resume), or a typed answer
 * anywhere (to decode before the SDK or the model reads it). The check made
 * up front: a request that carries none opens no session.
 */
export function answersIn(messages: readonly ModelMessage[]): boolean {
  const last = messages.at(-1);
  return (last?.role === 'tool' && last.content.some((part) => part.type === 'tool-approval-response')) || hasTypedAnswers(messages);
}
