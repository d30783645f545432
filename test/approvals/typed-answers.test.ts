import { isStepCount, type ModelMessage, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signApproval } from '../../src/approvals/approval-signature.ts';
import {
  APPROVAL_ANSWER_PREFIX,
  type ApprovalAnswer,
  approvalAnswer,
  type BeforeInvocationEvent,
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  defaultWording,
  defineHandler,
  InterventionActions,
  type InterventionHandlerLike,
  type InterventionsOptions,
} from '../../src/index.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const SECRET = 'test-secret-with-at-least-32-bytes-for-hmac';

/** A runtime that asks before every delete, a delete tool that records what it deleted, and the paused first turn. */
async function paused(
  mode: Mode,
  {
    handlers = [],
    options = { approvalSecret: SECRET, approvalLedger: createApprovalLedger() },
    path = '/tmp/a',
    call = {},
  }: {
    handlers?: InterventionHandlerLike[];
    options?: InterventionsOptions;
    path?: string;
    /** Options of every call (the first and the resume). */
    call?: { experimental_toolApprovalSecret?: string };
  } = {},
) {
  const deleted: string[] = [];
  const events: BeforeToolCallEvent[] = [];
  const tools = {
    delete_file: tool({
      inputSchema: z.object({ path: z.string().startsWith('/') }),
      execute: async ({ path: target }) => (deleted.push(target), `deleted ${target}`),
    }),
  };
  const interventions = createInterventions({
    ...options,
    handlers: [
      defineHandler({
        name: 'ask',
        beforeToolCall: (event) => (events.push(event), InterventionActions.confirm(`Delete ${JSON.stringify(event.toolCall.input)}?`)),
      }),
      ...handlers,
    ],
  });
  const history: ModelMessage[] = [{ role: 'user', content: `delete ${path}` }];
  const first = await run(interventions, mode, {
    model: scriptedModel(step(toolCall('c1', 'delete_file', { path }))),
    tools,
    stopWhen: isStepCount(3),
    messages: history,
    ...call,
  });
  const request = first.content.find(
    (part): part is { type: 'tool-approval-request'; approvalId: string; signature?: string } =>
      part.type === 'tool-approval-request' && (part as { isAutomatic?: boolean }).isAutomatic !== true,
  );
  if (request === undefined) throw new Error('no approval request');
  /** The history answering the request: typed (`approvalAnswer`), or a plain response. */
  const answered = (
    answer: ApprovalAnswer | { plain: true; approved: boolean; reason?: string },
    responseMessages = first.responseMessages,
  ): ModelMessage[] => {
    const { approved, reason } = 'plain' in answer ? answer : approvalAnswer({ id: request.approvalId, ...answer });
    return [
      ...history,
      ...responseMessages,
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: request.approvalId, approved, ...(reason === undefined ? {} : { reason }) },
        ],
      },
    ];
  };
  const resume = (messages: ModelMessage[]) => {
    const model = scriptedModel(step(text('done')));
    const outcome = run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages, ...call });
    return { model, outcome };
  };
  return { deleted, events, first, request, answered, resume, tools };
}

/** The history the model was sent, as JSON (to look for what it must never read). */
const sent = (model: ReturnType<typeof scriptedModel>) => JSON.stringify(model.calls);

describe.each(MODES)('typed approval answers through interventions.%s', (mode) => {
  describe('when a person refuses', () => {
    it("should give the model the rejectedCall wording with the person's reason, never the encoding, and run nothing", async () => {
      const { deleted, answered, resume } = await paused(mode);
      const { model, outcome } = resume(answered({ approved: false, reason: 'Not that folder', remember: 'always' }));
      await outcome;
      expect(deleted).toEqual([]);
      expect(toolResultsSent(model, 0).c1).toEqual({
        type: 'execution-denied',
        reason: defaultWording.rejectedCall({
          toolCall: { toolCallId: 'c1', toolName: 'delete_file', input: { path: '/tmp/a' } },
          reason: 'Not that folder',
        }),
      });
      expect(sent(model)).not.toContain(APPROVAL_ANSWER_PREFIX);
    });

    it('should leave a plain refusal exactly as the SDK sends it (the bare reason)', async () => {
      const { deleted, answered, resume } = await paused(mode);
      const { model, outcome } = resume(answered({ plain: true, approved: false, reason: 'Not that folder' }));
      await outcome;
      expect(deleted).toEqual([]);
      expect(toolResultsSent(model, 0).c1).toEqual({ type: 'execution-denied', reason: 'Not that folder' });
    });

    it("should use the runtime's own rejectedCall wording", async () => {
      const { answered, resume } = await paused(mode, {
        options: {
          approvalSecret: SECRET,
          approvalLedger: createApprovalLedger(),
          wording: { rejectedCall: ({ toolCall, reason }) => `NO ${toolCall.toolName}: ${reason ?? '-'}` },
        },
      });
      const { model, outcome } = resume(answered({ approved: false, reason: 'later' }));
      await outcome;
      expect(toolResultsSent(model, 0).c1).toEqual({ type: 'execution-denied', reason: 'NO delete_file: later' });
    });

    it('should show beforeInvocation handlers every answer of the input, decoded', async () => {
      const seen: BeforeInvocationEvent['answers'][] = [];
      const { answered, resume } = await paused(mode, {
        handlers: [
          defineHandler({ name: 'reader', beforeInvocation: (event) => (seen.push(event.answers), InterventionActions.proceed()) }),
        ],
      });
      await resume(answered({ approved: false, reason: 'Not now', remember: 'session' })).outcome;
      expect(seen.at(-1)).toEqual([
        {
          approvalId: expect.any(String),
          approved: false,
          reason: 'Not now',
          remember: 'session',
          typed: true,
          edited: undefined,
          toolCall: { toolCallId: 'c1', toolName: 'delete_file', input: { path: '/tmp/a' } },
          // the runtime context of the request that asked (none was given)
          asker: {},
        },
      ]);
    });
  });

  describe('when a person edits the arguments before approving', () => {
    it('should run the edited arguments once, after every handler ran again on them, and show them in the history', async () => {
      const { deleted, events, answered, resume } = await paused(mode);
      const { model, outcome } = resume(answered({ approved: true, input: { path: '/tmp/b' }, reason: 'b, not a' }));
      const result = await outcome;
      expect(deleted).toEqual(['/tmp/b']);
      // the handlers saw the edited call, with the person's answer
      const resumed = events.at(-1);
      expect(resumed?.approved).toBe(true);
      expect(resumed?.toolCall.input).toEqual({ path: '/tmp/b' });
      expect(resumed?.approval).toEqual({
        approvalId: expect.any(String),
        reason: 'b, not a',
        remember: 'once',
        typed: true,
        edited: { input: { path: '/tmp/b' }, original: { path: '/tmp/a' } },
      });
      // the next request shows the call as it ran, and its result
      const call = model.calls[0]?.prompt.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      expect(call).toContainEqual(expect.objectContaining({ type: 'tool-call', toolCallId: 'c1', input: { path: '/tmp/b' } }));
      expect(toolResultsSent(model, 0).c1).toEqual({ type: 'text', value: 'deleted /tmp/b' });
      expect(JSON.stringify(result.responseMessages)).toContain('deleted /tmp/b');
      expect(sent(model)).not.toContain(APPROVAL_ANSWER_PREFIX);
      expect(call).not.toContainEqual(expect.objectContaining({ type: 'tool-call', input: { path: '/tmp/a' } }));
    });

    it('should show the edited arguments in later turns of a history kept as model messages', async () => {
      const { answered, resume } = await paused(mode);
      const resumedHistory = answered({ approved: true, input: { path: '/tmp/b' } });
      const resumed = await resume(resumedHistory).outcome;
      const { model, outcome } = resume([...resumedHistory, ...resumed.responseMessages, { role: 'user', content: 'thanks' }]);
      await outcome;
      const calls = model.calls[0]?.prompt.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      expect(calls).toContainEqual(expect.objectContaining({ type: 'tool-call', toolCallId: 'c1', input: { path: '/tmp/b' } }));
      expect(calls).not.toContainEqual(expect.objectContaining({ type: 'tool-call', input: { path: '/tmp/a' } }));
      expect(sent(model)).not.toContain(APPROVAL_ANSWER_PREFIX);
    });

    it('should let a deny win on the edited arguments', async () => {
      const guard = defineHandler({
        name: 'guard',
        beforeToolCall: ({ toolCall: call }) =>
          (call.input as { path: string }).path.startsWith('/etc')
            ? InterventionActions.deny('System files are off limits.')
            : InterventionActions.proceed(),
      });
      const { deleted, answered, resume } = await paused(mode, { handlers: [guard] });
      const { model, outcome } = resume(answered({ approved: true, input: { path: '/etc/passwd' } }));
      const result = await outcome;
      expect(deleted).toEqual([]);
      expect(JSON.stringify(toolResultsSent(model, 0).c1)).toContain('System files are off limits.');
      expect(result.decisions).toContainEqual(expect.objectContaining({ handler: 'guard', action: 'deny', enforced: true }));
    });

    it("should refuse arguments the tool's schema rejects, with a reason the model can read, and keep the model's arguments", async () => {
      const { deleted, answered, resume } = await paused(mode);
      const { model, outcome } = resume(answered({ approved: true, input: { path: 'relative/path' } }));
      const result = await outcome;
      expect(deleted).toEqual([]);
      const output = toolResultsSent(model, 0).c1 as { type: string; reason: string };
      expect(output.type).toBe('execution-denied');
      expect(output.reason).toContain('The call to "delete_file" was blocked and was not executed.');
      expect(output.reason).toContain('the edited arguments are not valid for "delete_file": path:');
      const call = model.calls[0]?.prompt.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      expect(call).toContainEqual(expect.objectContaining({ type: 'tool-call', toolCallId: 'c1', input: { path: '/tmp/a' } }));
      expect(result.decisions).toContainEqual(
        expect.objectContaining({
          handler: 'approval-edit',
          action: 'deny',
          toolCallId: 'c1',
          reason: expect.stringContaining('not valid'),
        }),
      );
    });

    it("should re-sign the edit with the caller's own experimental_toolApprovalSecret", async () => {
      const { deleted, answered, resume, request } = await paused(mode, {
        options: {},
        call: { experimental_toolApprovalSecret: 'caller-secret' },
      });
      // the SDK's signature with the caller's secret, then the pin of who asked
      expect(request.signature?.split('.')[0]).toBe(
        await signApproval('caller-secret', {
          approvalId: request.approvalId,
          toolCallId: 'c1',
          toolName: 'delete_file',
          input: { path: '/tmp/a' },
        }),
      );
      await resume(answered({ approved: true, input: { path: '/tmp/b' } })).outcome;
      expect(deleted).toEqual(['/tmp/b']);
    });

    it('should run the validated edit when approvals are not signed', async () => {
      const { deleted, answered, resume } = await paused(mode, { options: {} });
      await resume(answered({ approved: true, input: { path: '/tmp/b' } })).outcome;
      expect(deleted).toEqual(['/tmp/b']);
    });
  });

  describe('when the history is tampered with', () => {
    it('should sign requests as the SDK does, with the pin of who asked after the signature', async () => {
      const { request } = await paused(mode);
      expect(request.signature).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(request.signature?.split('.')[0]).toBe(
        await signApproval(SECRET, {
          approvalId: request.approvalId,
          toolCallId: 'c1',
          toolName: 'delete_file',
          input: { path: '/tmp/a' },
        }),
      );
    });

    it('should still refuse arguments a client changed without a typed answer (the approval no longer verifies)', async () => {
      const { deleted, answered, resume } = await paused(mode);
      const forged = answered({ plain: true, approved: true }).map((message) =>
        message.role === 'assistant' && typeof message.content !== 'string'
          ? {
              ...message,
              content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, input: { path: '/etc' } } : part)),
            }
          : message,
      );
      const result = await resume(forged).outcome;
      expect(deleted).toEqual([]);
      expect(result.decisions.some((record) => record.action === 'deny')).toBe(true);
    });

    it('should refuse for the person, typed, an edit whose request signature is not valid, and run nothing', async () => {
      const { deleted, answered, resume } = await paused(mode);
      const forged = answered({ approved: true, input: { path: '/tmp/b' } }).map((message) =>
        message.role === 'assistant' && typeof message.content !== 'string'
          ? {
              ...message,
              content: message.content.map((part) => (part.type === 'tool-approval-request' ? { ...part, signature: 'AAAA' } : part)),
            }
          : message,
      );
      const result = await resume(forged).outcome;
      expect(deleted).toEqual([]);
      expect(result.decisions).toContainEqual(
        expect.objectContaining({ handler: 'approval-verification', action: 'deny', toolCallId: 'c1' }),
      );
    });

    it('should run nothing for an approval whose typed answer cannot be read, tell the model why, and record it', async () => {
      const { deleted, answered, resume } = await paused(mode);
      const broken = answered({ plain: true, approved: true, reason: `${APPROVAL_ANSWER_PREFIX}{"approved":true,"input":` });
      const { model, outcome } = resume(broken);
      const result = await outcome;
      expect(deleted).toEqual([]);
      const output = toolResultsSent(model, 0).c1 as { type: string; reason: string };
      expect(output.type).toBe('execution-denied');
      expect(output.reason).toContain(
        'The approval answer could not be read (what follows the prefix is not JSON), so the call was not executed.',
      );
      expect(sent(model)).not.toContain(APPROVAL_ANSWER_PREFIX);
      expect(result.decisions).toContainEqual(expect.objectContaining({ handler: 'approval-answer', action: 'deny', toolCallId: 'c1' }));
    });

    it('should treat an answer that contradicts its response (approved: true inside a refusal) as unreadable: a refusal without reason', async () => {
      const { deleted, answered, resume, request } = await paused(mode);
      const { reason } = approvalAnswer({ id: request.approvalId, approved: true });
      const { model, outcome } = resume(answered({ plain: true, approved: false, reason }));
      await outcome;
      expect(deleted).toEqual([]);
      expect(toolResultsSent(model, 0).c1).toEqual({
        type: 'execution-denied',
        reason: defaultWording.rejectedCall({ toolCall: { toolCallId: 'c1', toolName: 'delete_file', input: {} }, reason: undefined }),
      });
    });
  });

  it('should decode typed answers with nothing registered, and leave plain ones to the SDK', async () => {
    const deleted: string[] = [];
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        needsApproval: true,
        execute: async ({ path }) => (deleted.push(path), 'ok'),
      }),
    };
    const idle = createInterventions();
    const first = await run(idle, mode, { model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' }))), tools, prompt: 'go' });
    const request = first.content.find((part) => part.type === 'tool-approval-request') as unknown as { approvalId: string };
    const history = (reason: string): ModelMessage[] => [
      { role: 'user', content: 'go' },
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason }] },
    ];
    const typed = scriptedModel(step(text('ok')));
    await run(idle, mode, {
      model: typed,
      tools,
      messages: history(approvalAnswer({ id: request.approvalId, approved: false, reason: 'no' }).reason),
    });
    expect(JSON.stringify(toolResultsSent(typed, 0).c1)).toContain('The user did not approve the call to \\"delete_file\\"');
    const plain = scriptedModel(step(text('ok')));
    await run(idle, mode, { model: plain, tools, messages: history('no') });
    expect(toolResultsSent(plain, 0).c1).toEqual({ type: 'execution-denied', reason: 'no' });
    expect(deleted).toEqual([]);
  });
});

describe('typed approval answers in a ToolLoopAgent (interventions.agentSettings)', () => {
  it.each(['generate', 'stream'] as const)('should run the edit and word the refusal (agent.%s)', async (method) => {
    const deleted: string[] = [];
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (deleted.push(path), `deleted ${path}`),
      }),
    };
    const interventions = createInterventions({
      approvalSecret: SECRET,
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete?') })],
    });
    const model = scriptedModel(
      step(toolCall('c1', 'delete_file', { path: '/a' }), toolCall('c2', 'delete_file', { path: '/c' })),
      step(text('done')),
    );
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools }));
    const call = async (messages: ModelMessage[]) => {
      if (method === 'generate') return (await agent.generate({ messages })).responseMessages;
      const result = await agent.stream({ messages });
      await result.consumeStream();
      return result.responseMessages;
    };
    const history: ModelMessage[] = [{ role: 'user', content: 'delete' }, ...(await call([{ role: 'user', content: 'delete' }]))];
    const requests = history.flatMap((message) =>
      message.role === 'assistant' && typeof message.content !== 'string'
        ? message.content.flatMap((part) => (part.type === 'tool-approval-request' ? [part.approvalId] : []))
        : [],
    );
    const [edit, refusal] = [
      approvalAnswer({ id: requests[0] ?? '', approved: true, input: { path: '/b' } }),
      approvalAnswer({ id: requests[1] ?? '', approved: false, reason: 'keep /c' }),
    ];
    await call([
      ...history,
      {
        role: 'tool',
        content: [edit, refusal].map(({ id, approved, reason }) => ({
          type: 'tool-approval-response' as const,
          approvalId: id,
          approved,
          reason,
        })),
      },
    ]);
    expect(deleted).toEqual(['/b']);
    expect(toolResultsSent(model, 1).c2).toEqual({
      type: 'execution-denied',
      reason: defaultWording.rejectedCall({
        toolCall: { toolCallId: 'c2', toolName: 'delete_file', input: { path: '/c' } },
        reason: 'keep /c',
      }),
    });
    expect(sent(model)).not.toContain(APPROVAL_ANSWER_PREFIX);
  });
});

describe.each(MODES)("a person's edit of the app's own approval, through interventions.%s", (mode) => {
  it("should run the edited arguments when the tool's own needsApproval asked, with approvalSecret set and a handler deciding calls", async () => {
    const deleted: string[] = [];
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        needsApproval: true,
        execute: async ({ path }) => (deleted.push(path), `deleted ${path}`),
      }),
    };
    const interventions = createInterventions({
      approvalSecret: SECRET,
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'audit', beforeToolCall: () => InterventionActions.proceed() })],
    });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'delete /tmp/a' }];
    const first = await run(interventions, mode, {
      model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
      tools,
      stopWhen: isStepCount(3),
      messages: prompt,
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
    const edit = approvalAnswer({ id: request?.approvalId ?? '', approved: true, input: { path: '/tmp/b' } });
    const resumed = await run(interventions, mode, {
      model: scriptedModel(step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: [
        ...prompt,
        ...first.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: edit.id, approved: edit.approved, reason: edit.reason }] },
      ],
    });
    expect(deleted).toEqual(['/tmp/b']);
    expect(resumed.text).toBe('done');
  });
});
