import { convertToModelMessages, createUIMessageStreamResponse, isStepCount, validateUIMessages } from 'ai';
import { type InterventionUIMessage, toInterventionsUIMessageStream } from 'ai-interventions';
import { interventions, USERS, type UserKey } from '../../../lib/interventions';
import { chatModel } from '../../../lib/model';
import { createTools } from '../../../lib/tools';

export const maxDuration = 60;

const INSTRUCTIONS =
  'You are an operations assistant with four tools: run_shell, delete_file, send_email and deploy. ' +
  'To clean up files, try run_shell first; if it is blocked, use delete_file. ' +
  'If a tool call is blocked or sent back with feedback, read the tool result and act on it. ' +
  'When you are done, say in one or two sentences what happened, quoting the tool results.';

export async function POST(request: Request) {
  const body = (await request.json()) as { id?: unknown; messages?: unknown; user?: unknown };
  const chatId = typeof body.id === 'string' ? body.id : 'anonymous';
  // the demo's sign-in: the page says who is using it (a real app reads its own session here)
  const user = USERS[(typeof body.user === 'string' && body.user in USERS ? body.user : 'sam') as UserKey];
  const tools = createTools(chatId);
  // the client sends the whole conversation: check it against the tools' schemas first
  const messages = await validateUIMessages<InterventionUIMessage>({ messages: body.messages, tools });

  const result = interventions().streamText({
    model: await chatModel(),
    instructions: INSTRUCTIONS,
    tools,
    // an answered approval (addToolApprovalResponse with approvalAnswer) arrives here as a
    // tool-approval-response: the runtime decodes it, the run resumes, the handlers run again
    messages: await convertToModelMessages(messages, { tools }),
    stopWhen: isStepCount(8),
    // trusted, server-side: the user (from your auth; the demo's switcher here) and the conversation,
    // which a "for this chat" answer covers; who may answer an approval is read from it
    runtimeContext: { userId: user.userId, role: user.role, sessionId: chatId },
  });

  return createUIMessageStreamResponse({
    // the SDK's toUIMessageStream, plus a data-intervention part per decision (the page's badges and log)
    stream: toInterventionsUIMessageStream({
      stream: result.stream,
      interventions: result.interventions,
      tools,
      // continue the last assistant message when resuming after an approval
      originalMessages: messages,
      onError: (error) => (error instanceof Error ? error.message : String(error)),
    }),
  });
}
