/**
 * Approvals belong to people: who may answer a confirm (from the trusted
 * runtime context of the request carrying the answer), on whose behalf the
 * approved call runs (the request that asked, pinned in the signed
 * approval), expiry for every confirm (recorded as expired), and a quorum of
 * distinct approvers. Through `interventions.generateText` and `streamText`,
 * in one process; across processes sharing Redis in
 * `people-across-instances.test.ts`.
 */
import {
  generateText,
  isStepCount,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ModelMessage,
  readUIMessageStream,
  streamText,
  ToolLoopAgent,
  tool,
  type UIMessage,
} from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type ConfirmOptions,
  createApprovalLedger,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  guardTools,
  InterventionActions,
  type InterventionsOptions,
} from '../../src/index.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const SECRET = 'a shared approval secret of at least 32 bytes';
const ALICE = { userId: 'alice', role: 'employee' };
const BOB = { userId: 'bob', role: 'manager' };
const CAROL = { userId: 'carol', roles: ['manager', 'auditor'] };

/** A refund tool that counts its runs, and what runtime context its hooks saw. */
function refunds() {
  const executions: number[] = [];
  const tools = {
    refund: tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        executions.push(amount);
        return `refunded ${amount}`;
      },
    }),
  };
  return { executions, tools };
}

/** A runtime whose handler confirms every refund with `options`, and the user ids its tool hooks saw. */
function runtime(options: ConfirmOptions, extra: InterventionsOptions = {}) {
  const seen: { hook: unknown[]; handler: unknown[] } = { hook: [], handler: [] };
  const interventions = createInterventions({
    approvalSecret: SECRET,
    approvalLedger: createApprovalLedger(),
    handlers: [
      defineHandler({
        name: 'refunds',
        beforeToolCall: ({ runtimeContext, approved }) => {
          if (approved) seen.handler.push(runtimeContext.userId);
          return InterventionActions.confirm('Refund it?', options);
        },
      }),
    ],
    hooks: { preToolCall: [({ runtimeContext }) => void seen.hook.push(runtimeContext.userId)] },
    ...extra,
  });
  return { interventions, seen };
}

type Runtime = ReturnType<typeof runtime>['interventions'];

/** Asks as `asker`: the history of the paused refund, and how to answer it as someone. */
async function asked(interventions: Runtime, mode: Mode, tools: ReturnType<typeof refunds>['tools'], asker: Record<string, unknown>) {
  const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
  const first = await run(interventions, mode, {
    model: scriptedModel(step(toolCall('r1', 'refund', { amount: 50 }))),
    tools,
    stopWhen: isStepCount(3),
    messages: prompt,
    runtimeContext: asker,
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
  if (request === undefined) throw new Error('no approval request');
  const history = [...prompt, ...first.responseMessages];
  const answer = async (approver: Record<string, unknown>, approved = true) => {
    const model = scriptedModel(step(text('done')));
    const outcome = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }] }],
      runtimeContext: approver,
    });
    return { outcome, model };
  };
  return { history, answer, approvalId: request.approvalId };
}

const about = (decisions: readonly DecisionRecord[], handler: string) => decisions.filter((record) => record.handler === handler);

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('InterventionActions.confirm options, through interventions.%s', (mode) => {
  describe('when the confirm says who may answer it', () => {
    it('should run nothing for an answer from anyone else, record it, and leave the request for the right person', async () => {
      const { executions, tools } = refunds();
      const { interventions } = runtime({ approvers: { roles: ['manager'], label: 'a manager' } });
      const { answer } = await asked(interventions, mode, tools, ALICE);

      const byAlice = await answer(ALICE);
      expect(executions).toEqual([]);
      // the turn waits: no model was called, no result was written for the call
      expect(byAlice.model.calls).toHaveLength(0);
      expect(byAlice.outcome.responseMessages).toEqual([]);
      expect(about(byAlice.outcome.decisions, 'approval-approvers')).toEqual([
        expect.objectContaining({
          action: 'confirm',
          enforced: true,
          toolCallId: 'r1',
          display: 'Only a manager may approve this. It is still waiting.',
          approval: { status: 'not-allowed', askedBy: 'alice', answeredBy: 'alice', mayAnswer: 'a manager' },
        }),
      ]);

      // the next request by the right person answers the same request
      const byBob = await answer(BOB);
      expect(executions).toEqual([50]);
      expect(toolResultsSent(byBob.model, 0).r1).toEqual({ type: 'text', value: 'refunded 50' });
      expect(about(byBob.outcome.decisions, 'approval-approvers')).toEqual([
        expect.objectContaining({
          action: 'proceed',
          approval: { status: 'approved', askedBy: 'alice', answeredBy: 'bob', approvedBy: ['bob'] },
        }),
      ]);
    });

    it('should admit by user id, by any role of runtimeContext.roles, and by a predicate of the approver and the asker', async () => {
      const cases: Array<[ConfirmOptions['approvers'], Record<string, unknown>, boolean]> = [
        [{ userIds: ['bob'] }, BOB, true],
        [{ userIds: ['bob'] }, CAROL, false],
        [{ roles: ['auditor'] }, CAROL, true],
        [{ roles: ['auditor'] }, BOB, false],
        [{ allow: (approver, asker) => approver.userId !== asker.userId }, ALICE, false],
        [{ allow: (approver, asker) => approver.userId !== asker.userId }, BOB, true],
        [{ excludeAsker: true }, ALICE, false],
        [{ excludeAsker: true }, BOB, true],
        [{ roles: ['manager'], excludeAsker: true }, { userId: 'alice', role: 'manager' }, false],
      ];
      for (const [approvers, approver, runs] of cases) {
        const { executions, tools } = refunds();
        const { interventions } = runtime({ approvers });
        const { answer } = await asked(interventions, mode, tools, ALICE);
        await answer(approver);
        expect(executions, JSON.stringify({ approvers, approver })).toEqual(runs ? [50] : []);
      }
    });

    it('should show the request pending again in the UI stream, with who may answer it', async () => {
      if (mode !== 'streamText') return;
      const { executions, tools } = refunds();
      const { interventions } = runtime({ approvers: { roles: ['manager'], label: 'a manager' } });
      const { history, approvalId } = await asked(interventions, mode, tools, ALICE);
      const result = interventions.streamText({
        model: scriptedModel(step(text('done'))),
        tools,
        stopWhen: isStepCount(3),
        messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }],
        runtimeContext: ALICE,
      });
      const chunks = [];
      for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
      expect(executions).toEqual([]);
      const request = chunks.find((chunk) => chunk.type === 'tool-approval-request');
      expect(request).toEqual(
        expect.objectContaining({ approvalId, toolCallId: 'r1', reason: 'Refund it?', signature: expect.stringMatching(/\./) }),
      );
      expect(chunks).toContainEqual(
        expect.objectContaining({
          type: 'data-intervention',
          data: expect.objectContaining({
            toolCallId: 'r1',
            action: 'confirm',
            reason: 'Only a manager may approve this. It is still waiting.',
            approval: expect.objectContaining({ status: 'not-allowed', mayAnswer: 'a manager' }),
          }),
        }),
      );
    });
  });

  describe('when a manager approves what an employee asked', () => {
    it('should run the call with the runtime context of the request that asked, not the approver’s', async () => {
      const { executions, tools } = refunds();
      const { interventions, seen } = runtime({ approvers: { roles: ['manager'] } });
      const { answer } = await asked(interventions, mode, tools, ALICE);
      await answer(BOB);
      expect(executions).toEqual([50]);
      expect(seen.handler).toEqual(['alice']);
      expect(seen.hook).toEqual(['alice']);
    });

    it('should refuse an approval whose pin of who asked was taken off or moved, and run nothing', async () => {
      const { executions, tools } = refunds();
      const { interventions } = runtime({});
      const { history, approvalId } = await asked(interventions, mode, tools, ALICE);
      const stripped = history.map((message) =>
        message.role === 'assistant' && typeof message.content !== 'string'
          ? {
              ...message,
              content: message.content.map((part) =>
                part.type === 'tool-approval-request' ? { ...part, signature: part.signature?.split('.')[0] } : part,
              ),
            }
          : message,
      ) as ModelMessage[];
      const outcome = await run(interventions, mode, {
        model: scriptedModel(step(text('done'))),
        tools,
        stopWhen: isStepCount(3),
        messages: [...stripped, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }],
        runtimeContext: BOB,
      });
      expect(executions).toEqual([]);
      expect(outcome.decisions).toContainEqual(
        expect.objectContaining({ handler: 'approval-verification', action: 'deny', toolCallId: 'r1' }),
      );
    });
  });

  describe('when the confirm expires', () => {
    it('should record a late answer as expired, not as a refusal, and run nothing; an answer in time runs', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { executions, tools } = refunds();
      const { interventions } = runtime({ expiresInMs: 60_000 });
      const late = await asked(interventions, mode, tools, ALICE);
      vi.setSystemTime(Date.now() + 61_000);
      const { outcome, model } = await late.answer(BOB);
      expect(executions).toEqual([]);
      expect(about(outcome.decisions, 'approval-expiry')).toEqual([
        expect.objectContaining({
          action: 'deny',
          approval: { status: 'expired', askedBy: 'alice', answeredBy: 'bob', expiresInMs: 60_000 },
        }),
      ]);
      expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('expired');

      const inTime = await asked(interventions, mode, tools, ALICE);
      vi.setSystemTime(Date.now() + 59_000);
      await inTime.answer(BOB);
      expect(executions).toEqual([50]);
    });
  });

  describe('when the confirm needs two approvers', () => {
    it('should count each person once and run the call once, when the second approves', async () => {
      const { executions, tools } = refunds();
      const { interventions } = runtime({ quorum: 2, approvers: { roles: ['manager'], excludeAsker: true } });
      const { answer } = await asked(interventions, mode, tools, ALICE);

      const first = await answer(BOB);
      expect(executions).toEqual([]);
      expect(about(first.outcome.decisions, 'approval-quorum')).toEqual([
        expect.objectContaining({
          action: 'confirm',
          approval: expect.objectContaining({ status: 'awaiting-quorum', quorum: 2, approvedBy: ['bob'] }),
        }),
      ]);
      // the same person again counts once
      const again = await answer(BOB);
      expect(executions).toEqual([]);
      expect(about(again.outcome.decisions, 'approval-quorum')[0]?.approval?.approvedBy).toEqual(['bob']);

      const second = await answer(CAROL);
      expect(executions).toEqual([50]);
      expect(about(second.outcome.decisions, 'approval-approvers')).toEqual([
        expect.objectContaining({
          action: 'proceed',
          approval: expect.objectContaining({ status: 'approved', approvedBy: ['bob', 'carol'] }),
        }),
      ]);
      // a replay runs nothing again
      await answer(CAROL);
      expect(executions).toEqual([50]);
    });
  });
});

describe('a UI round trip of a held approval', () => {
  it('should leave the tool part waiting for approval, so the manager can answer it', async () => {
    const { executions, tools } = refunds();
    const { interventions } = runtime({ approvers: { roles: ['manager'], label: 'a manager' } });
    const { history, approvalId } = await asked(interventions, 'streamText', tools, ALICE);
    const before: UIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        {
          type: 'tool-refund',
          toolCallId: 'r1',
          state: 'approval-responded',
          input: { amount: 50 },
          approval: { id: approvalId, approved: true },
        },
      ],
    };
    const result = interventions.streamText({
      model: scriptedModel(step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }],
      runtimeContext: ALICE,
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ message: before, stream: result.toUIMessageStream() })) last = message;
    expect(executions).toEqual([]);
    expect(last?.parts).toContainEqual(expect.objectContaining({ type: 'tool-refund', toolCallId: 'r1', state: 'approval-requested' }));
    // the held turn adds no step: once the manager answers, useChat sends the conversation back on its own
    expect(last?.parts.filter((part) => part.type === 'step-start')).toEqual([]);
    const answeredByManager = {
      ...(last as UIMessage),
      parts: (last as UIMessage).parts.map((part) =>
        part.type === 'tool-refund' && part.state === 'approval-requested'
          ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved: true } }
          : part,
      ),
    } as UIMessage;
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [answeredByManager] })).toBe(true);
  });
});

describe.each(MODES)('guardTools with plain %s, and people', (mode) => {
  /** Plain SDK calls with tools guarded per request (the request's runtime context), on one shared ledger. */
  function plain(options: ConfirmOptions) {
    const ledger = createApprovalLedger();
    const { executions, tools } = refunds();
    const hookSaw: unknown[] = [];
    const guardsFor = (runtimeContext: Record<string, unknown>) =>
      guardTools(tools, {
        handlers: [defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', options) })],
        hooks: { preToolCall: [({ runtimeContext: context }) => void hookSaw.push(context.userId)] },
        approvalLedger: ledger,
        runtimeContext,
      });
    const call = async (messages: ModelMessage[], runtimeContext: Record<string, unknown>, model = scriptedModel(step(text('done')))) => {
      const settings = { model, tools: guardsFor(runtimeContext), stopWhen: isStepCount(3), messages };
      if (mode === 'generateText') return { model, result: await generateText(settings) };
      const result = streamText(settings);
      await result.consumeStream();
      return { model, result: { content: await result.content, responseMessages: (await result.response).messages } };
    };
    return { executions, hookSaw, call };
  }

  async function askedPlain(options: ConfirmOptions, asker: Record<string, unknown>) {
    const setup = plain(options);
    const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
    const { result } = await setup.call(prompt, asker, scriptedModel(step(toolCall('r1', 'refund', { amount: 50 }))));
    const request = result.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
    if (request === undefined) throw new Error('no approval request');
    const answered: ModelMessage[] = [
      ...prompt,
      ...result.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
    ];
    return { ...setup, answer: (approver: Record<string, unknown>) => setup.call(answered, approver) };
  }

  it('should run nothing for an answer from someone the confirm does not admit, and run it for the right person, as the asker', async () => {
    const { executions, hookSaw, answer } = await askedPlain({ approvers: { roles: ['manager'], label: 'a manager' } }, ALICE);
    const byAlice = await answer(ALICE);
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(byAlice.model, 0).r1)).toContain('Only a manager may approve this');
    await answer(BOB);
    expect(executions).toEqual([50]);
    expect(hookSaw).toEqual(['alice']);
  });

  it('should count a quorum of distinct people across requests, and run the call once', async () => {
    const { executions, answer } = await askedPlain({ quorum: 2 }, ALICE);
    await answer(BOB);
    await answer(BOB);
    expect(executions).toEqual([]);
    await answer(CAROL);
    expect(executions).toEqual([50]);
    await answer(CAROL);
    expect(executions).toEqual([50]);
  });

  it('should record a late answer as expired and run nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { executions, answer } = await askedPlain({ expiresInMs: 60_000 }, ALICE);
    vi.setSystemTime(Date.now() + 61_000);
    const late = await answer(BOB);
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(late.model, 0).r1)).toContain('expired');
  });
});

describe('a ToolLoopAgent with interventions.agentSettings, and people', () => {
  /** An agent whose runtime context is the caller's `options` (the signed-in person), confirming every refund for a manager. */
  function agentFor() {
    const { executions, tools } = refunds();
    const { interventions, seen } = runtime({ approvers: { roles: ['manager'], label: 'a manager' } });
    const models: ReturnType<typeof scriptedModel>[] = [];
    const agent = (model: ReturnType<typeof scriptedModel>) => {
      models.push(model);
      return new ToolLoopAgent(
        interventions.agentSettings({
          model,
          tools,
          callOptionsSchema: z.object({ userId: z.string(), role: z.string() }),
          prepareCall: ({ options, ...rest }) => ({ ...rest, runtimeContext: options }),
        }),
      );
    };
    return { executions, seen, interventions, agent };
  }

  it.each(['generate', 'stream'] as const)(
    'should hold an employee’s answer and run the call for a manager, as the employee (agent.%s)',
    async (method) => {
      const { executions, seen, agent } = agentFor();
      const call = async (messages: ModelMessage[], options: { userId: string; role: string }, model: ReturnType<typeof scriptedModel>) => {
        if (method === 'generate') return (await agent(model).generate({ messages, options })).responseMessages;
        const result = await agent(model).stream({ messages, options });
        await result.consumeStream();
        return (await result.response).messages;
      };
      const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
      const asked = [...prompt, ...(await call(prompt, ALICE, scriptedModel(step(toolCall('r1', 'refund', { amount: 50 })))))];
      const request = asked
        .flatMap((message) => (message.role === 'assistant' && typeof message.content !== 'string' ? message.content : []))
        .find((part) => part.type === 'tool-approval-request');
      const answered: ModelMessage[] = [
        ...asked,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] },
      ];
      const heldModel = scriptedModel(step(text('done')));
      await call(answered, ALICE, heldModel);
      expect(executions).toEqual([]);
      expect(heldModel.calls).toHaveLength(0);
      await call(answered, BOB, scriptedModel(step(text('done'))));
      expect(executions).toEqual([50]);
      expect(seen.hook).toEqual(['alice']);
    },
  );

  it('should show the held request pending again in interventions.createAgentUIStream, with who may answer', async () => {
    const { executions, interventions, agent } = agentFor();
    const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
    const first = await agent(scriptedModel(step(toolCall('r1', 'refund', { amount: 50 })))).generate({ messages: prompt, options: ALICE });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    const uiMessages: UIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'refund 50' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'tool-refund',
            toolCallId: 'r1',
            state: 'approval-responded',
            input: { amount: 50 },
            approval: {
              id: request?.approvalId ?? '',
              approved: true,
              signature: (request as { signature?: string } | undefined)?.signature,
            },
          },
        ],
      },
    ];
    const stream = await interventions.createAgentUIStream({
      agent: agent(scriptedModel(step(text('done')))),
      uiMessages,
      options: ALICE,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(executions).toEqual([]);
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: 'tool-approval-request', approvalId: request?.approvalId, toolCallId: 'r1' }),
    );
    expect(chunks).toContainEqual(
      expect.objectContaining({
        type: 'data-intervention',
        data: expect.objectContaining({ approval: expect.objectContaining({ status: 'not-allowed' }) }),
      }),
    );
  });
});
