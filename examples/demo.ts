/**
 * The demo (`npm run demo`): an ops assistant tidies up /tmp, with four
 * intervention handlers around an ordinary `generateText`:
 *
 *   deny      ToolGuard        no shell access: the model reads why and uses other tools
 *   confirm   DeleteApproval   a human approves each deletion; the run pauses and resumes
 *   transform PiiRedactor      SSNs are removed from tool results before the model sees them
 *   guide     EmailValidator   an email without a subject is sent back to the model to fix
 *
 * Runs on a scripted local model (or OpenAI with OPENAI_API_KEY set) and exits
 * non-zero if a guarantee is broken, e.g. a denied tool ran.
 *
 *   npm run demo
 */
import { isStepCount, tool, type ModelMessage, type ToolApprovalResponse } from 'ai';
import {
  createApprovalLedger,
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type AfterToolCallEvent,
  type BeforeToolCallEvent,
} from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, say, usingScriptedModel } from './lib/model.ts';
import { check, heading, note, printRun, summary, user } from './lib/print.ts';

// the handlers ----------------------------------------------------------------

class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  override beforeToolCall(event: BeforeToolCallEvent) {
    return event.toolCall.toolName === 'run_shell'
      ? InterventionActions.deny('Shell access is not allowed in this environment')
      : InterventionActions.proceed();
  }
}

class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
    const input = event.toolCall.input as { path: string };
    return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
  }
}

const SSN = /\b\d{3}-\d{2}-\d{4}\b/g;

class PiiRedactor extends InterventionHandler {
  readonly name = 'pii-redactor';
  override afterToolCall(event: AfterToolCallEvent) {
    if (!JSON.stringify(event.result ?? null).match(SSN)) return InterventionActions.proceed();
    return InterventionActions.transform<AfterToolCallEvent>((draft) => {
      draft.result = JSON.parse(JSON.stringify(draft.result).replace(SSN, '[REDACTED]'));
    });
  }
}

class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';
  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as { subject?: string };
    return event.toolCall.toolName === 'send_email' && !input.subject
      ? InterventionActions.guide('All emails must include a subject line.')
      : InterventionActions.proceed();
  }
}

// the tools (they record what really ran) -------------------------------------

const ran = { shell: [] as string[], deleted: [] as string[], emails: [] as Array<{ subject?: string | undefined }> };
const tools = {
  run_shell: tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.shell.push(command);
      return 'ok';
    },
  }),
  list_files: tool({
    description: 'List the files in a directory, with their sizes',
    inputSchema: z.object({ dir: z.string() }),
    execute: async ({ dir }) => [
      { path: `${dir}/build-cache`, size: '1.2 GB' },
      { path: `${dir}/session.log`, size: '4 KB' },
    ],
  }),
  delete_file: tool({
    description: 'Delete a file or directory',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      ran.deleted.push(path);
      return `deleted ${path}`;
    },
  }),
  lookup_owner: tool({
    description: 'Look up who owns a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async () => ({ name: 'Grace Hopper', email: 'grace@acme.test', team: 'build', ssn: '078-05-1120' }),
  }),
  send_email: tool({
    description: 'Send an email',
    inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }),
    execute: async (email) => {
      ran.emails.push(email);
      return `sent to ${email.to}`;
    },
  }),
};

const interventions = createInterventions({
  handlers: [new ToolGuard(), new DeleteApproval(), new PiiRedactor(), new EmailValidator()],
  approvalSecret: process.env.TOOL_APPROVAL_SECRET ?? 'demo-secret-do-not-use-in-production',
  // which approved calls ran, so a replayed resume runs nothing twice: in this process's memory
  approvalLedger: createApprovalLedger(),
});
const instructions = 'You are an ops assistant for a build server. Use the tools to do what the user asks.';
const history: ModelMessage[] = [];

// 1. deny, then confirm -----------------------------------------------------------

heading('1. "Free up some space in /tmp" (deny, then confirm)');
const cleanupModel = demoModel([
  () => [callTool('run_shell', { command: 'rm -rf /tmp/*' })],
  // denied: the model reads the reason and takes the careful route
  (request) =>
    request.toolResults.run_shell?.includes('not allowed')
      ? [callTool('list_files', { dir: '/tmp' })]
      : [say('Done.')],
  () => [callTool('delete_file', { path: '/tmp/build-cache' })],
  // after the human approved
  (request) => [say(`Shell access is blocked, so I listed /tmp and removed the largest item: ${request.toolResults.delete_file}, 1.2 GB freed.`)],
]);
history.push({ role: 'user', content: 'Free up some space in /tmp.' });
user('Free up some space in /tmp.');
const cleanup = await interventions.generateText({
  model: cleanupModel,
  tools,
  instructions,
  stopWhen: isStepCount(6),
  messages: history,
});
printRun(cleanup);
history.push(...cleanup.responseMessages);
check(ran.shell.length === 0, 'the denied shell command never ran');
check(ran.deleted.length === 0, 'nothing was deleted before a human approved');

const approvals: ToolApprovalResponse[] = [];
const approvedPaths: string[] = [];
for (const part of cleanup.content) {
  if (part.type === 'tool-approval-request' && !part.isAutomatic) {
    console.log(`\nhuman: ${part.reason} yes`);
    approvals.push({ type: 'tool-approval-response', approvalId: part.approvalId, approved: true });
    if (part.toolCall.toolName === 'delete_file') approvedPaths.push((part.toolCall.input as { path: string }).path);
  }
}
if (usingScriptedModel) check(approvals.length === 1, 'the run paused for one approval');

if (approvals.length > 0) {
  note('resuming with the answer');
  history.push({ role: 'tool', content: approvals });
  const resumed = await interventions.generateText({
    model: cleanupModel,
    tools,
    instructions,
    stopWhen: isStepCount(6),
    messages: history,
  });
  printRun(resumed);
  history.push(...resumed.responseMessages);
  check(ran.shell.length === 0, 'the shell was still never used');
  if (usingScriptedModel) check(ran.deleted.join() === '/tmp/build-cache', 'the approved deletion ran, once');
}

// 2. transform, then guide ---------------------------------------------------------

heading('2. "Tell the owner" (redaction, then guide)');
const notifyModel = demoModel([
  () => [callTool('lookup_owner', { path: '/tmp/build-cache' })],
  // the model writes from what it was given (the redacted record)
  (request) => {
    const owner = JSON.parse(request.toolResults.lookup_owner ?? '{}') as Record<string, string>;
    return [callTool('send_email', { to: owner.email ?? 'unknown', body: `Hi ${owner.name}, /tmp/build-cache was deleted to free space.` })];
  },
  // guided: the model adds a subject and tries again
  (request) =>
    request.toolResults.send_email?.includes('subject line')
      ? [callTool('send_email', { to: 'grace@acme.test', subject: 'build-cache removed', body: 'Hi Grace Hopper, /tmp/build-cache was deleted to free space.' })]
      : [say('Done.')],
  () => [say('I emailed Grace Hopper (grace@acme.test, build team) that /tmp/build-cache was removed.')],
]);
const ask = 'Who owns /tmp/build-cache? Email them that it was deleted.';
history.push({ role: 'user', content: ask });
user(ask);
const notify = await interventions.generateText({
  model: notifyModel,
  tools,
  instructions,
  stopWhen: isStepCount(6),
  messages: history,
});
printRun(notify);
history.push(...notify.responseMessages);

const everythingSent = JSON.stringify([cleanupModel.requests, notifyModel.requests].flat().map((request) => request.prompt));
check(!everythingSent.includes('078-05-1120'), 'the SSN never reached the model');
check(ran.emails.every((email) => Boolean(email.subject)), 'no email was sent without a subject');
check(ran.shell.length === 0 && ran.deleted.every((path) => approvedPaths.includes(path)), 'nothing ran that was not allowed');
if (usingScriptedModel) {
  check(ran.emails.length === 1, 'the model fixed the email and it was sent once');
  const actions = notify.interventions.decisions.map((record) => record.action);
  check(actions.includes('transform') && actions.includes('guide'), 'the redactor transformed and the validator guided');
}

console.log(`\n${history.length} messages in the conversation.`);
summary();
