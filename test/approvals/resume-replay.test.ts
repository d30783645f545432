/**
 * A replayed approval returns the result of the one execution, as an
 * idempotency key does: the same resume request sent again (a regenerate, a
 * retry, a double submit) or to another instance executes nothing a second
 * time, and the model reads what the first execution gave. Through
 * `interventions.generateText` and `interventions.streamText`, through tools
 * guarded without a run (`guardTools`, `wrapTools`), through a
 * `ToolLoopAgent`, and across two Node processes sharing one real
 * `redis-server`.
 */
import { generateText, isStepCount, type ModelMessage, streamText, ToolLoopAgent, type ToolSet, tool } from 'ai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import {
  type AfterToolCallEvent,
  type ApprovalLedger,
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  guardTools,
  InterventionActions,
  type InterventionsOptions,
} from '../../src/index.ts';
import { spawnChild } from '../helpers/child-process.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';
import type { ReplayChildCommand, ReplayChildMessage } from './resume-replay-child.ts';

const SECRET = 'the-secret-every-instance-shares';
const ask = () => defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Approve the transfer?') });

/** A transfer tool; `executions` counts its runs, `fail` makes it throw, `delayMs` makes it slow. */
function bank({ fail = false, delayMs = 0 }: { fail?: boolean; delayMs?: number } = {}) {
  const executions: number[] = [];
  const tools = {
    transfer: tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        executions.push(amount);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (fail) throw new Error(`bank unreachable after transferring ${amount}`);
        return `transferred ${amount}`;
      },
    }),
  };
  return { executions, tools };
}

/** A ledger that counts its claims. */
function countingLedger(): ApprovalLedger & { readonly claims: string[] } {
  const ledger = createApprovalLedger();
  const claims: string[] = [];
  return { ...ledger, claims, claim: (approvalId) => (claims.push(approvalId), ledger.claim(approvalId)) };
}

/** The history of a paused transfer, and the resume request answering it (approved). */
async function pausedTransfer(options: InterventionsOptions, tools: ToolSet, amount = 10) {
  const interventions = createInterventions(options);
  const first = await interventions.generateText({
    model: scriptedModel(step(toolCall('t1', 'transfer', { amount }))),
    tools,
    stopWhen: isStepCount(3),
    prompt: 'pay',
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  if (request === undefined) throw new Error('no approval request');
  const messages: ModelMessage[] = [
    { role: 'user', content: 'pay' },
    ...first.responseMessages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
  ];
  return { interventions, messages, approvalId: request.approvalId };
}

describe.each(MODES)('a replayed approval (%s)', (mode) => {
  it('should execute the call once and answer the replay with the recorded result, recording that it was replayed', async () => {
    const { executions, tools } = bank();
    const { interventions, messages } = await pausedTransfer({ handlers: [ask()] }, tools);

    const firstModel = scriptedModel(step(text('paid')));
    const first = await run(interventions, mode, { model: firstModel, tools, stopWhen: isStepCount(3), messages });
    const replayModel = scriptedModel(step(text('paid, again')));
    const replay = await run(interventions, mode, { model: replayModel, tools, stopWhen: isStepCount(3), messages });

    expect(executions).toEqual([10]);
    expect(toolResultsSent(firstModel, 0).t1).toEqual({ type: 'text', value: 'transferred 10' });
    expect(toolResultsSent(replayModel, 0).t1).toEqual({ type: 'text', value: 'transferred 10' });
    expect(first.decisions.filter((record) => record.replayed)).toEqual([]);
    expect(replay.decisions.filter((record) => record.handler === 'approval-ledger')).toEqual([
      expect.objectContaining({ action: 'proceed', replayed: true, toolCallId: 't1', toolName: 'transfer', enforced: true }),
    ]);
    expect(replay.text).toBe('paid, again');
  });

  it('should execute once when the same resume request arrives twice at once, and give both the result (the second waits for it)', async () => {
    const { executions, tools } = bank({ delayMs: 50 });
    const { interventions, messages } = await pausedTransfer({ handlers: [ask()] }, tools);
    const models = [scriptedModel(step(text('a'))), scriptedModel(step(text('b')))];

    await Promise.all(models.map((model) => run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages })));

    expect(executions).toEqual([10]);
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([
      { type: 'text', value: 'transferred 10' },
      { type: 'text', value: 'transferred 10' },
    ]);
  });

  it('should answer the replay of a call that threw with the same error text, without executing it again', async () => {
    const { executions, tools } = bank({ fail: true });
    const { interventions, messages } = await pausedTransfer({ handlers: [ask()] }, tools);
    const models = [scriptedModel(step(text('failed'))), scriptedModel(step(text('failed again')))];

    for (const model of models) await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages });

    expect(executions).toEqual([10]);
    const expected = { type: 'error-text', value: 'Error: bank unreachable after transferring 10' };
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([expected, expected]);
  });

  it('should record the result as the model reads it (after the result hooks and handlers), and not run them again on a replay', async () => {
    const { executions, tools } = bank();
    let hookRuns = 0;
    const { interventions, messages } = await pausedTransfer(
      {
        handlers: [
          ask(),
          defineHandler({
            name: 'stamp',
            afterToolCall: () =>
              InterventionActions.transform<AfterToolCallEvent>((draft) => void (draft.result = `${String(draft.result)} (checked)`)),
          }),
        ],
        hooks: { onToolCallResult: ({ result }) => (hookRuns++, { result: String(result).toUpperCase() }) },
      },
      tools,
    );
    const models = [scriptedModel(step(text('1'))), scriptedModel(step(text('2')))];

    for (const model of models) await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages });

    expect(executions).toEqual([10]);
    expect(hookRuns).toBe(1);
    const expected = { type: 'text', value: 'TRANSFERRED 10 (checked)' };
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([expected, expected]);
  });

  it('should keep a deny on resume winning: nothing is claimed, and an approval the handlers let through later still executes once', async () => {
    const { executions, tools } = bank();
    const ledger = countingLedger();
    let frozen = true; // an account freeze decided between the request and its resume
    const freeze = defineHandler({
      name: 'freeze',
      beforeToolCall: (event: BeforeToolCallEvent) =>
        event.approved && frozen ? InterventionActions.deny('The account is frozen.') : InterventionActions.proceed(),
    });
    const { interventions, messages } = await pausedTransfer(
      { handlers: [ask(), freeze], approvalLedger: ledger, approvalSecret: SECRET },
      tools,
    );

    const denied = scriptedModel(step(text('frozen')));
    await run(interventions, mode, { model: denied, tools, stopWhen: isStepCount(3), messages });
    expect(executions).toEqual([]);
    expect(ledger.claims).toEqual([]);
    expect(toolResultsSent(denied, 0).t1).toMatchObject({ type: 'execution-denied' });

    frozen = false;
    for (const answer of ['paid', 'paid again']) {
      await run(interventions, mode, { model: scriptedModel(step(text(answer))), tools, stopWhen: isStepCount(3), messages });
    }
    expect(executions).toEqual([10]);
    expect(ledger.claims).toHaveLength(2);
  });

  it('should stream the preliminary results of a generator tool the first time, and give a replay its final result', async () => {
    const executions: string[] = [];
    const tools = {
      transfer: tool({
        inputSchema: z.object({ amount: z.number() }),
        async *execute({ amount }) {
          executions.push('started');
          yield 'pending';
          yield `transferred ${amount}`;
        },
      }),
    };
    const { interventions, messages } = await pausedTransfer({ handlers: [ask()] }, tools);
    const models = [scriptedModel(step(text('1'))), scriptedModel(step(text('2')))];
    const preliminary: unknown[][] = [];
    for (const model of models) {
      if (mode === 'generateText') {
        await interventions.generateText({ model, tools, stopWhen: isStepCount(3), messages });
        continue;
      }
      const result = interventions.streamText({ model, tools, stopWhen: isStepCount(3), messages });
      const seen: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === 'tool-result') seen.push([part.preliminary === true, part.output]);
      preliminary.push(seen);
    }
    expect(executions).toEqual(['started']);
    const expected = { type: 'text', value: 'transferred 10' };
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([expected, expected]);
    if (mode === 'streamText') {
      expect(preliminary).toEqual([
        [
          [true, 'pending'],
          [true, 'transferred 10'],
          [false, 'transferred 10'],
        ],
        // a replay yields the recorded result once: as any generator yielding one value, preliminary then final
        [
          [true, 'transferred 10'],
          [false, 'transferred 10'],
        ],
      ]);
    }
  });
});

describe.each(MODES)('a replayed approval of tools guarded without a run (%s)', (mode) => {
  const plain = (options: Parameters<typeof generateText>[0]) =>
    mode === 'generateText'
      ? generateText(options)
      : (async () => {
          const result = streamText(options as Parameters<typeof streamText>[0]);
          await result.consumeStream();
          return result;
        })();

  it.each([
    ['guardTools', (tools: ToolSet) => guardTools(tools, [ask()])],
    ['wrapTools', (tools: ToolSet) => createInterventions({ handlers: [ask()] }).wrapTools(tools)],
  ] as const)('should execute the call once with %s, and answer the replay with the recorded result', async (_, guard) => {
    const { executions, tools: raw } = bank();
    const tools = guard(raw);
    const first = await generateText({ model: scriptedModel(step(toolCall('t1', 'transfer', { amount: 10 }))), tools, prompt: 'pay' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    const messages: ModelMessage[] = [
      { role: 'user', content: 'pay' },
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
    ];
    const models = [scriptedModel(step(text('1'))), scriptedModel(step(text('2')))];

    for (const model of models) await plain({ model, tools, stopWhen: isStepCount(3), messages });

    expect(executions).toEqual([10]);
    const expected = { type: 'text', value: 'transferred 10' };
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([expected, expected]);
  });

  it('should not take a new call with a reused id, in a later step, for the resumed one', async () => {
    const { executions, tools: raw } = bank();
    const tools = guardTools(raw, [
      defineHandler({
        name: 'ask-big',
        beforeToolCall: (event) =>
          (event.toolCall.input as { amount: number }).amount > 100 ? InterventionActions.confirm('Big?') : InterventionActions.proceed(),
      }),
    ]);
    const first = await generateText({ model: scriptedModel(step(toolCall('call_0', 'transfer', { amount: 500 }))), tools, prompt: 'pay' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    const messages: ModelMessage[] = [
      { role: 'user', content: 'pay' },
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
    ];
    // after the resumed call, the model calls the tool again with the same id (as some providers do)
    const model = scriptedModel(step(toolCall('call_0', 'transfer', { amount: 5 })), step(text('done')));

    await plain({ model, tools, stopWhen: isStepCount(4), messages });

    expect(executions).toEqual([500, 5]);
  });
});

describe('a replayed approval through a ToolLoopAgent (agentSettings)', () => {
  it('should execute the call once and answer the replay with the recorded result', async () => {
    const { executions, tools } = bank();
    const { interventions, messages } = await pausedTransfer({ handlers: [ask()] }, tools);
    const models = [scriptedModel(step(text('1'))), scriptedModel(step(text('2')))];

    for (const model of models) {
      const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(3) }));
      await agent.generate({ messages });
    }

    expect(executions).toEqual([10]);
    const expected = { type: 'text', value: 'transferred 10' };
    expect(models.map((model) => toolResultsSent(model, 0).t1)).toEqual([expected, expected]);
  });
});

describe.skipIf(!hasRedisServer)(redisTitle('a replayed approval across two Node processes sharing a redis-server'), () => {
  const redis = useRedisServer();

  function startInstances(prefix: string) {
    const instances = ['A', 'B'].map((name) =>
      spawnChild<ReplayChildMessage, ReplayChildCommand>(new URL('./resume-replay-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, name, SECRET],
      }),
    );
    onTestFinished(async () => {
      await Promise.all(instances.map((instance) => instance.kill()));
    });
    return instances;
  }

  it.each(MODES)(
    'should execute once and give both instances the result when the same resume request reaches both, at once and one after the other (%s)',
    async (mode: Mode) => {
      const prefix = uniquePrefix();
      const instances = startInstances(prefix);
      await Promise.all(instances.map((instance) => instance.receive('ready', { timeoutMs: 30_000 })));
      const { tools } = bank(); // this process only asks; the instances execute
      const atOnce = await pausedTransfer({ handlers: [ask()], approvalSecret: SECRET, approvalLedger: createApprovalLedger() }, tools, 10);
      const inTurn = await pausedTransfer({ handlers: [ask()], approvalSecret: SECRET, approvalLedger: createApprovalLedger() }, tools, 20);

      // at once: the tool takes 100 ms, so the later instance finds it running and waits for its outcome
      for (const instance of instances) instance.send({ type: 'resume', mode, messages: atOnce.messages, executeMs: 100 });
      const together = await Promise.all(instances.map((instance) => instance.receive('resumed', { timeoutMs: 30_000 })));
      // one after the other: the second instance gets the outcome recorded in Redis
      const [a, b] = instances as [(typeof instances)[number], (typeof instances)[number]];
      a.send({ type: 'resume', mode, messages: inTurn.messages, executeMs: 0 });
      const firstInTurn = await a.receive('resumed', { timeoutMs: 30_000 });
      b.send({ type: 'resume', mode, messages: inTurn.messages, executeMs: 0 });
      const secondInTurn = await b.receive('resumed', { timeoutMs: 30_000 });
      await Promise.all(instances.map((instance) => instance.close()));

      expect(together.filter((report) => report.executed)).toHaveLength(1);
      const executedBy = together[0]?.executed === true ? 'A' : 'B';
      for (const report of together) {
        expect(report.toolResult).toEqual({ type: 'text', value: `transferred 10 on ${executedBy}` });
      }
      expect(together.flatMap((report) => report.ledgerRecords).filter((record) => record.replayed)).toHaveLength(1);

      expect([firstInTurn.executed, secondInTurn.executed]).toEqual([true, false]);
      expect(firstInTurn.toolResult).toEqual({ type: 'text', value: 'transferred 20 on A' });
      expect(secondInTurn.toolResult).toEqual({ type: 'text', value: 'transferred 20 on A' });
      expect(secondInTurn.ledgerRecords).toEqual([expect.objectContaining({ replayed: true, toolCallId: 't1' })]);
      expect(secondInTurn.text).toBe('done on B');
    },
    60_000,
  );
});
