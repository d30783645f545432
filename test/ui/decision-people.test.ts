import { convertToModelMessages, isStepCount, lastAssistantMessageIsCompleteWithApprovalResponses, tool, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ApprovalAnswer,
  approvalAnswer,
  approvalOf,
  canAnswer,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  humanApproval,
  InterventionActions,
  type InterventionData,
  type InterventionUIMessage,
  toInterventionsUIMessageStream,
} from '../../src/index.ts';
import { TestChat } from '../helpers/chat.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const SAM = { userId: 'sam', role: 'developer' };
const MORGAN = { userId: 'morgan', role: 'manager' };

/**
 * A chat (the AI SDK's own, as useChat runs it) whose route runs deploy
 * (a manager approves) and delete_file (anyone approves; only /tmp), with
 * the signed-in person of each request, and a decision part for every
 * decided call; `ran` is what executed.
 */
function chat(...turns: Array<ReturnType<typeof scriptedModel>>) {
  const ran: string[] = [];
  const interventions = createInterventions({
    approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
    approvalLedger: createApprovalLedger(),
    // a part for every decided call: a plain refusal too (a decision log)
    decisionParts: 'all',
    handlers: [
      defineHandler({
        name: 'path-guard',
        beforeToolCall: ({ toolCall: call }) =>
          call.toolName === 'delete_file' && !String((call.input as { path?: unknown }).path).startsWith('/tmp/')
            ? InterventionActions.deny('Only paths under /tmp may be deleted.', 'Only /tmp may be deleted')
            : InterventionActions.proceed(),
      }),
      humanApproval({ name: 'delete-approval', tools: 'delete_file' }),
      humanApproval({ name: 'deploy-approval', tools: 'deploy', approvers: { roles: ['manager'], label: 'a manager' } }),
    ],
  });
  const tools = {
    deploy: tool({ inputSchema: z.object({ environment: z.string() }), execute: async () => (ran.push('deploy'), 'deployed') }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (ran.push(`delete ${path}`), `deleted ${path}`),
    }),
  };
  let signedIn: Record<string, unknown> = SAM;
  let turn = 0;
  const session = new TestChat<InterventionUIMessage>({
    respond: async (messages) => {
      const model = turns[turn++];
      if (model === undefined) throw new Error(`no model for request ${turn}`);
      const result = interventions.streamText({
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: await convertToModelMessages(messages, { tools }),
        runtimeContext: { ...signedIn, sessionId: 'chat-1' },
      });
      return toInterventionsUIMessageStream({
        stream: result.stream,
        interventions: result.interventions,
        tools,
        originalMessages: messages,
      }) as ReadableStream<UIMessageChunk>;
    },
  });
  const decisions = (toolCallId: string): InterventionData[] =>
    session.all.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'data-intervention' && part.data.toolCallId === toolCallId ? [part.data] : [])),
    );
  /** Answers the pending request as `person`, as the page would (the request carries who is signed in). */
  const answer = async (person: Record<string, unknown>, typed: ApprovalAnswer) => {
    signedIn = person;
    const pending = session.all
      .at(-1)
      ?.parts.find((part) => 'approval' in part && part.state === 'approval-requested' && !part.approval.isAutomatic);
    if (pending === undefined || !('approval' in pending) || pending.approval === undefined) throw new Error('nothing to answer');
    await session.addToolApprovalResponse(approvalAnswer({ id: pending.approval.id, ...typed }));
    if (lastAssistantMessageIsCompleteWithApprovalResponses({ messages: session.all })) await session.sendMessage();
  };
  return { session, ran, decisions, answer, ask: (words: string) => session.sendMessage({ text: words }) };
}

describe('who asked, who may answer and who answered, in the decisions a chat shows', () => {
  it("should say who asked a request and who may answer it as rules a page can compare, then who answered, through a manager's approval", async () => {
    const { ran, decisions, answer, ask } = chat(
      scriptedModel(step(toolCall('d1', 'deploy', { environment: 'production' }))),
      scriptedModel(step(text('Waiting.'))),
      scriptedModel(step(text('Deployed.'))),
    );
    await ask('Deploy to production');
    const [asked] = decisions('d1');
    expect(asked).toMatchObject({
      action: 'confirm',
      handler: 'deploy-approval',
      approval: { askedBy: 'sam', mayAnswer: 'a manager', approvers: [{ roles: ['manager'], label: 'a manager' }] },
    });
    expect(canAnswer(approvalOf(decisions('d1')), SAM)).toBe(false);
    expect(canAnswer(approvalOf(decisions('d1')), MORGAN)).toBe(true);

    // Sam's own approval does not count (the server holds it): the request is shown again, and still not Sam's to answer
    await answer(SAM, { approved: true });
    expect(ran).toEqual([]);
    expect(decisions('d1').at(-1)?.approval).toMatchObject({ status: 'not-allowed', askedBy: 'sam', answeredBy: 'sam' });
    expect(approvalOf(decisions('d1'))).toMatchObject({ status: 'not-allowed', approvers: [{ roles: ['manager'] }], askedBy: 'sam' });
    expect(canAnswer(approvalOf(decisions('d1')), SAM)).toBe(false);
    expect(canAnswer(approvalOf(decisions('d1')), MORGAN)).toBe(true);

    await answer(MORGAN, { approved: true });
    expect(ran).toEqual(['deploy']);
    expect(decisions('d1').at(-1)).toMatchObject({
      action: 'proceed',
      answer: { approved: true },
      approval: { status: 'approved', askedBy: 'sam', answeredBy: 'morgan', approvedBy: ['morgan'] },
    });
  });

  it('should say who refused a request, and that anyone may answer one without approvers', async () => {
    const { ran, decisions, answer, ask } = chat(
      scriptedModel(step(toolCall('r1', 'delete_file', { path: '/tmp/a' }))),
      scriptedModel(step(text('Kept.'))),
    );
    await ask('Delete /tmp/a');
    const asked = decisions('r1');
    expect(asked).toEqual([expect.objectContaining({ action: 'confirm', approval: { askedBy: 'sam' } })]);
    expect(canAnswer(approvalOf(asked), MORGAN)).toBe(true);
    expect(canAnswer(approvalOf(asked), {})).toBe(true);

    await answer(MORGAN, { approved: false, reason: 'Keep it' });
    expect(ran).toEqual([]);
    expect(decisions('r1').at(-1)).toMatchObject({
      action: 'deny',
      answer: { approved: false, reason: 'Keep it' },
      approval: { answeredBy: 'morgan' },
    });
    expect(decisions('r1').at(-1)?.handler).toBeUndefined();
  });

  it.each([
    ['a handler refuses', { path: '/etc/passwd' }, 'path-guard', 'Only /tmp may be deleted'],
    ["the tool's schema refuses", { file: 3 }, 'approval-edit', expect.stringContaining('path')],
  ] as const)('should show the arguments a person edited when %s them, not the model’s', async (_, edit, handler, reason) => {
    const { ran, decisions, answer, ask, session } = chat(
      scriptedModel(step(toolCall('e1', 'delete_file', { path: '/tmp/a' }))),
      scriptedModel(step(text('Not deleted.'))),
    );
    await ask('Delete /tmp/a');
    await answer(SAM, { approved: true, input: edit });
    expect(ran).toEqual([]);
    expect(decisions('e1').at(-1)).toMatchObject({
      action: 'deny',
      handler,
      reason,
      answer: { approved: true, edited: true },
      input: edit,
      approval: { answeredBy: 'sam' },
    });
    // the tool part is the SDK's: it keeps the model's arguments, so the decision is where the edit is shown
    const part = session.all.at(-1)?.parts.find((item) => item.type === 'tool-delete_file');
    expect(part).toMatchObject({ state: 'output-denied', input: { path: '/tmp/a' } });
  });
});
