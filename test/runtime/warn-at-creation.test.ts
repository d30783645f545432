import { isStepCount, type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callBudget,
  createApprovalLedger,
  createDecisionTrail,
  createInterventions,
  createMemoryStore,
  defineHandler,
  guardTools,
  humanApproval,
  InterventionActions,
  type Interventions,
  InterventionsWarning,
  type OnStatusContext,
  rateLimit,
  type Store,
} from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { processWarnings } from '../helpers/process-warnings.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const { warnings, settled } = processWarnings();
const SECRET = 'shared-with-at-least-32-bytes-for-hmac';

describe('createInterventions', () => {
  describe('when an approvalSecret is configured with the default in-memory approval ledger', () => {
    it("should emit one typed warning per process, and tell each runtime's onStatus hooks", async () => {
      const statuses: OnStatusContext[] = [];
      const onStatus = (context: OnStatusContext) => void statuses.push(context);
      createInterventions({ approvalSecret: 'shared-with-at-least-32-bytes-for-hmac', hooks: { onStatus } });
      createInterventions({ approvalSecret: 'shared-with-at-least-32-bytes-for-hmac', hooks: { onStatus } });
      await settled();

      const ours = warnings.filter((warning) => InterventionsWarning.isInstance(warning));
      expect(ours).toHaveLength(1);
      expect(ours[0]).toMatchObject({ name: 'AIInterventionsWarning', code: 'approval-ledger-in-memory' });
      expect(ours[0]?.message).toMatch(/executes once per instance only/);
      expect(statuses).toHaveLength(2);
      expect(statuses[0]).toMatchObject({
        runId: undefined,
        status: { type: 'warning', code: 'approval-ledger-in-memory', message: ours[0]?.message },
      });
    });
  });

  it('should not warn without a secret, with a ledger given on purpose, or with the ledger off', async () => {
    const statuses: OnStatusContext[] = [];
    const hooks = { onStatus: (context: OnStatusContext) => void statuses.push(context) };
    createInterventions({ hooks });
    createInterventions({ approvalSecret: 's-with-at-least-32-bytes-for-hmac', approvalLedger: createApprovalLedger(), hooks });
    createInterventions({ approvalSecret: 's-with-at-least-32-bytes-for-hmac', approvalLedger: false, hooks });
    await settled();
    expect(statuses).toEqual([]);
  });

  it('should not break creation when an onStatus hook throws', async () => {
    expect(() =>
      createInterventions({
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        hooks: {
          onStatus: () => {
            throw new Error('observer failed');
          },
        },
      }),
    ).not.toThrow();
    await settled();
  });
});

/**
 * One store that two runtimes share, as two instances share a Redis store:
 * any store not made by `createMemoryStore` counts as shared.
 */
function sharedStore(): Store {
  return { ...createMemoryStore() };
}

/** The warnings (code and message) the runtime `make` creates tells its onStatus hooks. */
async function toldBy(make: (onStatus: (context: OnStatusContext) => void) => unknown): Promise<{ code: string; message: string }[]> {
  const told: { code: string; message: string }[] = [];
  make(({ status }) => {
    if (status.type === 'warning') told.push({ code: status.code, message: status.message });
  });
  await settled();
  return told;
}

/** The library's warnings emitted in this process so far (once per process and key), with what they name. */
function emitted() {
  return warnings
    .filter((warning) => InterventionsWarning.isInstance(warning))
    .map(({ code, handlerName, option }) => ({
      code,
      ...(handlerName === undefined ? {} : { handlerName }),
      ...(option === undefined ? {} : { option }),
    }));
}

/** A refund behind a confirm, asked on one runtime and answered on another: what ran, and what the model read. */
async function askedOnOneAnsweredOnAnother(instances: readonly [Interventions, Interventions]) {
  const refunds: unknown[] = [];
  const tools = {
    refund: tool({ inputSchema: z.object({ amount: z.number() }), execute: async (input) => (refunds.push(input), 'refunded') }),
  };
  const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
  const asked = await instances[0].generateText({
    model: scriptedModel(step(toolCall('c1', 'refund', { amount: 50 }))),
    tools,
    messages: prompt,
  });
  const [request] = approvalRequests(asked.content);
  const model = scriptedModel(step(text('done')));
  await instances[1].generateText({
    model,
    tools,
    stopWhen: isStepCount(2),
    messages: answeredHistory(prompt, asked.responseMessages, { id: request?.approvalId ?? '', approved: true }),
  });
  return { refunds, sent: JSON.stringify(model.calls[0]?.prompt) };
}

const confirmsRefunds = () => defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund?') });

describe('issue 36 finding 10: no warning at creation when approvalSecret is left out while the approval ledger is shared', () => {
  it('should warn, once per process, that each instance signs with its own key, which a person finds only by answering on another', async () => {
    const store = sharedStore();
    const statuses: OnStatusContext[] = [];
    const onStatus = (context: OnStatusContext) => void statuses.push(context);
    const instances = [0, 1].map(() =>
      createInterventions({ handlers: [confirmsRefunds()], approvalLedger: createApprovalLedger({ store }), hooks: { onStatus } }),
    ) as [Interventions, Interventions];
    await settled();
    expect(emitted()).toEqual([{ code: 'approval-secret-per-instance' }]);
    expect(warnings.find((warning) => InterventionsWarning.isInstance(warning))?.message).toMatch(
      /the approval ledger is on a shared store.*approvalSecret is not set: each instance signs .* with a random key of its own/,
    );
    expect(statuses.map(({ status }) => status.type === 'warning' && status.code)).toEqual([
      'approval-secret-per-instance',
      'approval-secret-per-instance',
    ]);
    // what it warns about: the approval given on the other instance is refused, nothing runs
    const { refunds, sent } = await askedOnOneAnsweredOnAnother(instances);
    expect(refunds).toEqual([]);
    expect(sent).toContain('could no longer be verified');
  });

  it('should not warn with the same secret on every instance, where the answer on the other instance runs', async () => {
    const store = sharedStore();
    const instances = [0, 1].map(() =>
      createInterventions({ handlers: [confirmsRefunds()], approvalLedger: createApprovalLedger({ store }), approvalSecret: SECRET }),
    ) as [Interventions, Interventions];
    await settled();
    expect(emitted()).toEqual([]);
    expect((await askedOnOneAnsweredOnAnother(instances)).refunds).toEqual([{ amount: 50 }]);
  });

  it("should warn when humanApproval's requests are shared without a secret, and about the ledger left in memory", async () => {
    const told = await toldBy((onStatus) =>
      createInterventions({ handlers: [humanApproval({ tools: ['refund'], remember: { store: sharedStore() } })], hooks: { onStatus } }),
    );
    expect(told.map(({ code }) => code)).toEqual(['approval-secret-per-instance', 'approval-ledger-in-memory']);
    expect(told[1]?.message).toContain(
      'the remember.store of handler "human-approval" is on a shared store but the approval ledger is in memory',
    );
  });

  it('should not warn about the secret for tools guarded without a run: the plain SDK call signs their approvals', async () => {
    const told = await toldBy((onStatus) =>
      guardTools(
        {},
        { handlers: [confirmsRefunds()], approvalLedger: createApprovalLedger({ store: sharedStore() }), hooks: { onStatus } },
      ),
    );
    expect(told).toEqual([]);
  });
});

describe('when some state is shared by several instances and some is left in memory', () => {
  const sharedLedger = () => ({ approvalSecret: SECRET, approvalLedger: createApprovalLedger({ store: sharedStore() }) });

  it.each([
    [
      'humanApproval remembered answers',
      () => humanApproval({ tools: ['refund'] }),
      'the remember.store of handler "human-approval"',
      /an answer that reaches another instance finds no request/,
    ],
    [
      'rateLimit counters',
      () => rateLimit({ limit: 1, windowMs: 60_000, per: 'user' }),
      'the store of handler "rate-limit"',
      /the limit is multiplied by the number of instances/,
    ],
    [
      'callBudget per user',
      () => callBudget({ per: 'user', maxToolCalls: 10 }),
      'the store of handler "call-budget"',
      /a user's budget is multiplied/,
    ],
  ])('%s in memory: should warn, naming the handler and the option', async (_label, make, named, consequence) => {
    const told = await toldBy((onStatus) => createInterventions({ handlers: [make()], ...sharedLedger(), hooks: { onStatus } }));
    expect(told.map(({ code }) => code)).toEqual(['state-in-memory']);
    expect(told[0]?.message).toContain(`${named} is in this process's memory while the approval ledger is shared by several instances`);
    expect(told[0]?.message).toMatch(consequence);
  });

  it('should emit each once per process, naming the handler and the option', async () => {
    for (let instance = 0; instance < 2; instance++) {
      createInterventions({
        handlers: [
          humanApproval({ name: 'refund-approval', tools: ['refund'] }),
          rateLimit({ name: 'refund-rate', limit: 1, windowMs: 60_000, per: 'user' }),
        ],
        ...sharedLedger(),
      });
    }
    await settled();
    expect(emitted()).toEqual([
      { code: 'state-in-memory', handlerName: 'refund-approval', option: 'remember.store' },
      { code: 'state-in-memory', handlerName: 'refund-rate', option: 'store' },
    ]);
  });

  it('should show what it warns about: a rate limit of 1 per user lets a user through once on each instance', async () => {
    const instances = [0, 1].map(() =>
      createInterventions({ handlers: [rateLimit({ limit: 1, windowMs: 60_000, per: 'user' })], ...sharedLedger() }),
    );
    let searches = 0;
    const tools = { search: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => ++searches }) };
    for (const instance of instances) {
      await instance.generateText({
        model: scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('ok'))),
        tools,
        stopWhen: isStepCount(2),
        prompt: 'search',
        runtimeContext: { userId: 'u1' },
      });
    }
    expect(searches).toBe(2);
  });

  it('should warn about a decision trail kept in memory while other state is shared', async () => {
    const told = await toldBy((onStatus) =>
      createInterventions({
        ...sharedLedger(),
        trail: createDecisionTrail({ store: createMemoryStore(), key: 'chat' }),
        hooks: { onStatus },
      }),
    );
    expect(told.map(({ code }) => code)).toEqual(['state-in-memory']);
    expect(told[0]?.message).toContain('verifying one never sees the records of the others');
  });

  it('should not warn when all of it is shared, when all of it is in memory, or for state per run', async () => {
    const store = sharedStore();
    const shared = await toldBy((onStatus) =>
      createInterventions({
        handlers: [
          humanApproval({ tools: ['refund'], remember: { store } }),
          rateLimit({ limit: 1, windowMs: 60_000, per: 'user', store }),
          callBudget({ per: 'run', maxToolCalls: 10 }),
        ],
        approvalSecret: SECRET,
        approvalLedger: createApprovalLedger({ store }),
        trail: createDecisionTrail({ store, key: 'chat' }),
        hooks: { onStatus },
      }),
    );
    const inMemory = await toldBy((onStatus) =>
      createInterventions({
        handlers: [humanApproval({ tools: ['refund'] }), rateLimit({ limit: 1, windowMs: 60_000, per: 'user' })],
        trail: createDecisionTrail({ store: createMemoryStore(), key: 'chat' }),
        hooks: { onStatus },
      }),
    );
    expect([...shared, ...inMemory]).toEqual([]);
  });
});
