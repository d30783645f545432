/**
 * What a request may add to the conversation the server keeps: the page
 * sends only its last message, and the server takes from it only what a
 * person may add. A user message is appended (or, sent again after a failed
 * request, replaces itself); an assistant message brings only answers to the
 * approval requests of the conversation's last message, copied onto the
 * server's own copy (the call, its arguments and the request's signature
 * stay the server's). A resume (the page learned that the inbox answered
 * the conversation's open requests) adds nothing: the server writes the
 * inbox's answers in itself. Everything else is refused, in a sentence a
 * person can read.
 */
import { isToolUIPart } from 'ai';
import { approvalOf } from 'ai-interventions/client';
import type { ChatMessage } from './chat-message';
import { type DemoUser, nameOf } from './users';

export type Continued = { readonly messages: ChatMessage[] } | { readonly status: number; readonly error: string };

export function continueChat(stored: readonly ChatMessage[], incoming: unknown, user: DemoUser): Continued {
  const message = incoming as Partial<ChatMessage> | null | undefined;
  const id = message?.id;
  const parts = message?.parts;
  if (typeof id !== 'string' || !Array.isArray(parts)) {
    return { status: 400, error: 'The request carries no message: reload the page and try again.' };
  }
  const at = stored.findIndex((item) => item.id === id);
  if (message?.role === 'user') return userMessage(stored, at, { id, parts }, user);
  if (message?.role === 'assistant') return answers(stored, at, parts);
  return { status: 400, error: 'Only your messages and your answers can be sent.' };
}

/** A resume: the conversation as it is, if its last message still has requests the inbox may have answered. */
export function resumeChat(stored: readonly ChatMessage[]): Continued {
  const last = stored.at(-1);
  const open = last?.role === 'assistant' && last.parts.some((part) => isToolUIPart(part) && part.state === 'approval-requested');
  if (!open) return { status: 409, error: 'This request was already answered: the chat shows what became of it.' };
  return { messages: [...stored] };
}

function userMessage(stored: readonly ChatMessage[], at: number, message: Pick<ChatMessage, 'id' | 'parts'>, user: DemoUser): Continued {
  const parts = message.parts.filter((part) => part.type === 'text' && part.text.trim() !== '');
  if (parts.length === 0) return { status: 400, error: 'The message is empty.' };
  const sent: ChatMessage = { id: message.id, role: 'user', parts, metadata: { userId: user.userId } };
  if (at === -1) return { messages: [...stored, sent] };
  // sent again (a retry after a failed request): it replaces itself, and what followed it, if it is still the last one
  if (stored.slice(at + 1).some((item) => item.role === 'user')) {
    return { status: 409, error: 'That message is no longer the last one of the conversation, so it cannot be sent again.' };
  }
  return { messages: [...stored.slice(0, at), sent] };
}

function answers(stored: readonly ChatMessage[], at: number, parts: ChatMessage['parts']): Continued {
  if (at === -1) return { status: 409, error: 'This request is not in the conversation any more: reload the chat.' };
  if (at !== stored.length - 1) {
    return { status: 409, error: 'This request was closed: the conversation moved on before it was answered, so nothing ran.' };
  }
  const kept = stored[at] as ChatMessage;
  const responses = new Map<string, { approved: boolean; reason?: string }>();
  for (const part of parts) {
    if (isToolUIPart(part) && part.state === 'approval-responded') {
      responses.set(part.approval.id, { approved: part.approval.approved, reason: part.approval.reason });
    }
  }
  let answered = 0;
  let alreadyBy: string | undefined;
  const updated = kept.parts.map((part) => {
    if (!isToolUIPart(part) || part.approval === undefined) return part;
    const response = responses.get(part.approval.id);
    if (response === undefined) return part;
    if (part.state !== 'approval-requested') {
      alreadyBy ??= answeredBy(kept, part.toolCallId) ?? '';
      return part;
    }
    answered++;
    return { ...part, state: 'approval-responded', approval: { ...part.approval, ...response } } as unknown as typeof part;
  });
  if (answered === 0) {
    const by = alreadyBy === undefined || alreadyBy === '' ? '' : ` by ${nameOf(alreadyBy)}`;
    return { status: 409, error: `This request was already answered${by}: there is nothing left to answer.` };
  }
  return { messages: [...stored.slice(0, at), { ...kept, parts: updated }] };
}

/** Who answered a call's request, as its decisions say. */
function answeredBy(message: ChatMessage, toolCallId: string): string | undefined {
  const decisions = message.parts.flatMap((part) =>
    part.type === 'data-intervention' && part.data.toolCallId === toolCallId ? [part.data] : [],
  );
  return approvalOf(decisions)?.answeredBy;
}
