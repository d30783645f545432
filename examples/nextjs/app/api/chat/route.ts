import { convertToModelMessages, createUIMessageStreamResponse, generateId, isStepCount, validateUIMessages } from 'ai';
import { toInterventionsUIMessageStream } from 'ai-interventions';
import { CHAT_ID, type ChatMessage } from '../../../lib/chat-message';
import { chatStore } from '../../../lib/chat-store';
import { takeTurn } from '../../../lib/chat-turns';
import { continueChat, resumeChat } from '../../../lib/continue-chat';
import { inboxAnswers, streamWithAnswers, withAnswers } from '../../../lib/inbox-answers';
import { interventions } from '../../../lib/interventions';
import { chatModel } from '../../../lib/model';
import { createTools } from '../../../lib/tools';
import { runtimeContextOf, signedInUser } from '../../../lib/users';

export const maxDuration = 60;

const INSTRUCTIONS =
  'You are an operations assistant with four tools: run_shell, delete_file, send_email and deploy. ' +
  'To clean up files, try run_shell first; if it is blocked, use delete_file. ' +
  'If a tool call is blocked or sent back with feedback, read the tool result and act on it. ' +
  'When you are done, say in one or two sentences what happened, quoting the tool results.';

/** A refusal the page shows as it is: a sentence. */
const sentence = (status: number, text: string) => new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export async function POST(request: Request) {
  // the page sends only its last message (a user message, or its answers to approvals): the server keeps the rest;
  // or `resume: true` once the inbox answered the conversation's open requests
  const body = (await request.json().catch(() => undefined)) as { id?: unknown; message?: unknown; resume?: unknown } | undefined;
  const chatId = typeof body?.id === 'string' && CHAT_ID.test(body.id) ? body.id : undefined;
  if (chatId === undefined) return sentence(400, 'This chat has no valid id: open a new chat.');
  // the demo's sign-in (a cookie): a real app reads its own session here
  const user = signedInUser(request);
  const done = await takeTurn(chatId);
  if (done === undefined) return sentence(409, 'Another request of this chat is still running: try again when it has finished.');
  try {
    const store = chatStore();
    const stored = await store.load(chatId);
    const resume = body?.resume === true;
    const continued = resume ? resumeChat(stored?.messages ?? []) : continueChat(stored?.messages ?? [], body?.message, user);
    if ('error' in continued) {
      done();
      return sentence(continued.status, continued.error);
    }
    const tools = createTools(chatId);
    const validated = await validateUIMessages<ChatMessage>({ messages: continued.messages, tools });
    // the answers a manager gave in the inbox to this conversation's open requests, written in as the page would
    // have sent them (a new user message withdraws the requests nobody answered instead)
    const history = await interventions().inbox.resume(await convertToModelMessages(validated, { tools }));
    const fromInbox = inboxAnswers(history, validated);
    if (resume && fromInbox.length === 0) {
      done();
      return sentence(409, 'This request is still waiting for an answer: the chat continues once someone answers it.');
    }
    const messages = withAnswers(validated, fromInbox);

    const result = interventions().streamText({
      model: await chatModel(),
      instructions: INSTRUCTIONS,
      tools,
      // an answered approval (addToolApprovalResponse with approvalAnswer, or the inbox's) arrives here as a
      // tool-approval-response: the runtime decodes it, the run resumes, the handlers run again
      messages: history,
      stopWhen: isStepCount(8),
      // Stop on the page aborts the request: the model call ends, and what was said so far is kept
      abortSignal: request.signal,
      // trusted, server-side: the user (from the session) and the conversation, which a "for this chat"
      // answer covers; who may answer an approval is read from it
      runtimeContext: runtimeContextOf(user, chatId),
    });

    return createUIMessageStreamResponse({
      // the SDK's toUIMessageStream, plus a data-intervention part per decision (the page's badges and log)
      stream: streamWithAnswers(
        toInterventionsUIMessageStream<typeof tools, ChatMessage>({
          stream: result.stream,
          interventions: result.interventions,
          tools,
          // continue the last assistant message when resuming after an approval
          originalMessages: messages,
          // the server names new messages, so the page and the store agree
          generateMessageId: generateId,
          onError: (error) => {
            console.error(error);
            return `The assistant could not finish this answer (${error instanceof Error ? error.message : String(error)}).`;
          },
          // what the page shows is what is kept: the conversation, its decisions and its pending requests
          // (Stop, or a reload, ends the request: the stream is cancelled, and what was said so far is kept, marked as stopped)
          onEnd: async ({ messages: all, isAborted, isCancelled }) => {
            try {
              const saved = await store.save(chatId, finished(all, isAborted || isCancelled === true), stored?.version ?? 0);
              if (saved === undefined) console.error(`[example] chat ${chatId} changed while this request ran: its answer was not saved`);
            } finally {
              done();
            }
          },
        }),
        // the inbox's answers, told to the page as the chat's own would be: the request shows as answered at once
        fromInbox,
      ),
    });
  } catch (error) {
    done();
    console.error(error);
    return sentence(500, `The server could not answer (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** The conversation as it is kept: an answer stopped on the page says so (and ends where it stopped); one stopped before it said anything is dropped. */
function finished(messages: ChatMessage[], stopped: boolean): ChatMessage[] {
  const last = messages.at(-1);
  if (!stopped || last?.role !== 'assistant') return messages;
  const parts = last.parts.flatMap((part): ChatMessage['parts'] => {
    if (part.type !== 'text' && part.type !== 'reasoning') return [part];
    return part.text === '' ? [] : [{ ...part, state: 'done' }];
  });
  if (!parts.some((part) => part.type !== 'step-start')) return messages.slice(0, -1);
  return [...messages.slice(0, -1), { ...last, parts, metadata: { ...last.metadata, stopped: true } }];
}
