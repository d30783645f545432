/**
 * Confirm and resume: a `DeleteApproval` handler asks a human before any file
 * is deleted. The run ends with a `tool-approval-request`; the human's answer
 * goes back as a `tool-approval-response`, and a second call resumes the run.
 * Approvals are signed (`approvalSecret`), so an edited one runs nothing.
 *
 *   npm run example -- confirm-and-resume
 */
import { isStepCount, tool, type ModelMessage, type ToolApprovalResponse } from 'ai';
import {
  createApprovalLedger,
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type BeforeToolCallEvent,
} from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, say, usingScriptedModel } from './lib/model.ts';
import { check, heading, note, printRun, summary, user } from './lib/print.ts';

class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'delete_file') {
      const input = event.toolCall.input as { path: string };
      return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
    }
    return InterventionActions.proceed();
  }
}

const deleted: string[] = [];
const tools = {
  delete_file: tool({
    description: 'Delete a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  }),
};

const model = demoModel([
  () => [callTool('delete_file', { path: '/tmp/build-cache' })],
  // after the resume: the approved call ran, the model reads its result
  (request) => [say(`Done: ${request.toolResults.delete_file ?? 'nothing happened'}.`)],
]);

const interventions = createInterventions({
  handlers: [new DeleteApproval()],
  // signs every approval request; keep it on the server (e.g. process.env.TOOL_APPROVAL_SECRET)
  approvalSecret: process.env.TOOL_APPROVAL_SECRET ?? 'example-secret-do-not-use-in-production',
  // which approved calls ran, so a replayed resume runs nothing twice: in this process's memory
  // (several instances share one on Redis: createApprovalLedger({ store: createRedisStore({ client }) }))
  approvalLedger: createApprovalLedger(),
});

heading('Confirm: the run pauses for a human');
const messages: ModelMessage[] = [{ role: 'user', content: 'Delete /tmp/build-cache, it is stale.' }];
user('Delete /tmp/build-cache, it is stale.');
const first = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages });
printRun(first);
check(deleted.length === 0, 'nothing was deleted before a human answered');

// the app shows each request to a human and collects the answers
const approvals: ToolApprovalResponse[] = [];
for (const part of first.content) {
  if (part.type === 'tool-approval-request' && !part.isAutomatic) {
    console.log(`\nhuman: ${part.reason} yes`);
    approvals.push({ type: 'tool-approval-response', approvalId: part.approvalId, approved: true });
  }
}
const history: ModelMessage[] = [...messages, ...first.responseMessages];

heading('Resume: the answer goes back as a tool-approval-response');
const second = await interventions.generateText({
  model,
  tools,
  stopWhen: isStepCount(5),
  messages: [...history, { role: 'tool', content: approvals }],
});
printRun(second);
if (usingScriptedModel) {
  check(approvals.length === 1, 'the first run ended with one approval request');
  check(deleted.length === 1 && deleted[0] === '/tmp/build-cache', 'after approval the file was deleted, once');
  check(second.text.includes('deleted /tmp/build-cache'), 'the model read the result of the approved call');
}

heading('An approval whose arguments were edited runs nothing');
// someone replays the approved history with a different path
const tampered = structuredClone(history).map((message) =>
  message.role !== 'assistant' || typeof message.content === 'string'
    ? message
    : {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-call' ? { ...part, input: { path: '/etc/passwd' } } : part,
        ),
      },
);
const before = deleted.length;
try {
  await interventions.generateText({
    model,
    tools,
    stopWhen: isStepCount(5),
    messages: [...tampered, { role: 'tool', content: approvals }],
  });
  note('the call completed');
} catch (error) {
  note(`rejected: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
}
check(deleted.length === before, 'the edited call did not run');
summary();
