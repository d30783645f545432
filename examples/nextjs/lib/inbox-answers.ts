/**
 * The answers an approval inbox gave a conversation's open requests, where
 * the page sees them. `interventions().inbox.resume(modelMessages)` writes
 * them into the history the model run gets (as `tool-approval-response`s,
 * so the requester's page never carries an approval part); these helpers
 * mirror them onto the conversation the server keeps (each request's part
 * becomes `approval-responded`, as an answer given in the chat would make
 * it) and into the stream, so the page shows the answer at once.
 */
import { isToolUIPart, type ModelMessage, type ToolApprovalResponse, type UIMessageChunk } from 'ai';
import type { ChatMessage } from './chat-message';

/** The responses `resumed` holds for the requests still open in the conversation's last message. */
export function inboxAnswers(resumed: readonly ModelMessage[], messages: readonly ChatMessage[]): ToolApprovalResponse[] {
  const open = new Set(
    (messages.at(-1)?.parts ?? []).flatMap((part) => (isToolUIPart(part) && part.state === 'approval-requested' ? [part.approval.id] : [])),
  );
  return resumed.flatMap((message) =>
    message.role === 'tool'
      ? message.content.filter((part): part is ToolApprovalResponse => part.type === 'tool-approval-response' && open.has(part.approvalId))
      : [],
  );
}

/** The conversation with `answers` given to the requests of its last message. */
export function withAnswers(messages: readonly ChatMessage[], answers: readonly ToolApprovalResponse[]): ChatMessage[] {
  const last = messages.at(-1);
  if (last === undefined || answers.length === 0) return [...messages];
  const byId = new Map(answers.map((answer) => [answer.approvalId, answer]));
  const parts = last.parts.map((part) => {
    const answer = isToolUIPart(part) && part.state === 'approval-requested' ? byId.get(part.approval.id) : undefined;
    if (answer === undefined || !isToolUIPart(part)) return part;
    const approval = { ...part.approval, approved: answer.approved, ...(answer.reason === undefined ? {} : { reason: answer.reason }) };
    return { ...part, state: 'approval-responded', approval } as typeof part;
  });
  return [...messages.slice(0, -1), { ...last, parts }];
}

/** `stream`, with `answers` told to the page right after the message starts (the chunks an answer in the chat would have made). */
export function streamWithAnswers(
  stream: ReadableStream<UIMessageChunk>,
  answers: readonly ToolApprovalResponse[],
): ReadableStream<UIMessageChunk> {
  if (answers.length === 0) return stream;
  let told = false;
  const tell = (controller: TransformStreamDefaultController<UIMessageChunk>) => {
    told = true;
    for (const { approvalId, approved, reason } of answers) {
      controller.enqueue({ type: 'tool-approval-response', approvalId, approved, ...(reason === undefined ? {} : { reason }) });
    }
  };
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        if (!told && chunk.type !== 'start') tell(controller);
        controller.enqueue(chunk);
        if (!told && chunk.type === 'start') tell(controller);
      },
    }),
  );
}
