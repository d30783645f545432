/**
 * `callBudget` through the public wrappers (`interventions.generateText` and
 * `interventions.streamText`) on a scripted model: which tools ran, how many
 * model calls were made, what the model read, and how the run ended.
 *
 * Every scripted step reports usage 10 input + 5 output = 15 tokens.
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { isStepCount, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { callBudget } from '../../src/builtins/call-budget.ts';
import { createApprovalLedger, createInterventions, InterventionHandlerError, InvalidHandlerError } from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import type { Store } from '../../src/store/store.ts';
import { deniedText, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

function recordingTools() {
  const ran: string[] = [];
  const tools = {
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        ran.push(q);
        return `found ${q}`;
      },
    }),
  };
  return { tools, ran };
}

const search = (id: string) => toolCall(id, 'search', { q: id });

/** The texts of the user messages of a request. */
function userTexts(prompt: LanguageModelV4Prompt | undefined): string[] {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('callBudget through interventions.%s', (mode) => {
  describe('maxToolCalls', () => {
    it('per run: runs the budgeted calls, denies the rest with the reason, and the model answers', async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxToolCalls: 3 })] });
      const model = scriptedModel(
        step(search('a'), search('b')),
        step(search('c'), search('d'), search('e')),
        step(text('Found a, b and c.')),
      );

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Search' });

      expect(ran).toEqual(['a', 'b', 'c']);
      const sent = toolResultsSent(model, 2);
      expect(sent.c).toEqual({ type: 'text', value: 'found c' });
      for (const id of ['d', 'e']) {
        expect(deniedText(sent[id])).toContain('was blocked and was not executed');
        expect(deniedText(sent[id])).toContain('Tool-call budget exhausted: this run has used all of its 3 tool calls.');
      }
      expect(result.text).toBe('Found a, b and c.');
      expect(model.calls).toHaveLength(3);
    });

    it('per run: each run has its own budget', async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxToolCalls: 1 })] });
      const models = ['x', 'y'].map((id) => scriptedModel(step(search(`${id}1`), search(`${id}2`)), step(text(id))));

      await Promise.all(models.map((model) => run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' })));

      expect(ran.sort()).toEqual(['x1', 'y1']);
    });

    it('per user: shared by the runs of a user, in a shared store, renewed each window', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-03-01T23:00:00.000Z'));
      const { tools, ran } = recordingTools();
      const store = createMemoryStore();
      // two runtimes (two servers) sharing one store
      const budget = () => callBudget({ per: 'user', maxToolCalls: 2, windowMs: 86_400_000, store });
      const serverA = createInterventions({ handlers: [budget()] });
      const serverB = createInterventions({ handlers: [budget()] });
      const first = scriptedModel(step(search('1')), step(text('ok')));
      const second = scriptedModel(step(search('2'), search('3')), step(text('ok')));
      const bob = scriptedModel(step(search('bob')), step(text('ok')));
      const nextDay = scriptedModel(step(search('4')), step(text('ok')));

      await run(serverA, mode, { model: first, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { userId: 'alice' } });
      await run(serverB, mode, { model: second, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { userId: 'alice' } });
      await run(serverB, mode, { model: bob, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { userId: 'bob' } });
      vi.setSystemTime(new Date('2026-03-02T00:00:01.000Z'));
      await run(serverA, mode, { model: nextDay, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { userId: 'alice' } });

      expect(ran).toEqual(['1', '2', 'bob', '4']);
      expect(deniedText(toolResultsSent(second, 1)['3'])).toContain(
        'Tool-call budget exhausted: this user has used all of their 2 tool calls. It resets in 60 minutes (at 2026-03-02T00:00:00.000Z).',
      );
    });

    it('per user, in a run without a user: the model reads what is missing (tool calls and model calls)', async () => {
      const { tools } = recordingTools();
      const missing = '"call-budget" needs runtimeContext.userId (it budgets per user), and this run has none, so the call was not run.';
      const calls = createInterventions({ handlers: [callBudget({ per: 'user', maxToolCalls: 2 })] });
      const model = scriptedModel(step(search('1')), step(text('ok')));
      await run(calls, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
      expect(deniedText(toolResultsSent(model, 1)['1'])).toContain(missing);

      const tokens = createInterventions({ handlers: [callBudget({ per: 'user', maxTokens: 1_000 })] });
      const result = await run(tokens, mode, { model: scriptedModel(step(text('never'))), prompt: 'go' });
      expect(result.text).toContain(missing);
    });

    it("exit 'guide': the model reads the budget as feedback", async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxToolCalls: 1, exit: 'guide' })] });
      const model = scriptedModel(step(search('a'), search('b')), step(text('ok')));

      await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(ran).toEqual(['a']);
      const guided = deniedText(toolResultsSent(model, 1).b);
      expect(guided).toContain('[call-budget] Tool-call budget exhausted');
      expect(guided).toContain('Do not call tools any more; answer with what you have.');
    });

    it("exit 'confirm': a human may allow a call over the budget", async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({
        handlers: [callBudget({ per: 'user', maxToolCalls: 1, exit: 'confirm' })],
        approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const model = scriptedModel(step(search('a'), search('b')), step(text('Both done.')));
      const runtimeContext = { userId: 'alice' };

      const first = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext });
      const request = first.content.find((part) => part.type === 'tool-approval-request') as
        | { approvalId: string; reason?: string }
        | undefined;
      expect(ran).toEqual(['a']);
      expect(request?.reason).toBe(
        'Tool-call budget exhausted: this user has used all of their 1 tool calls. Allow this call to "search" anyway?',
      );

      const resumed = await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        runtimeContext,
        messages: [
          { role: 'user', content: 'go' },
          ...first.responseMessages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] },
        ],
      });

      expect(ran).toEqual(['a', 'b']);
      expect(resumed.text).toBe('Both done.');
    });
  });

  describe('maxTokens', () => {
    it('per run: ends the run before the model call past the budget, with the reason as its text', async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxTokens: 40 })] });
      const model = scriptedModel(
        step(search('a')), // 15 tokens
        step(search('b')), // 30
        step(search('c')), // 45: over 40
        step(text('never called')),
      );

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'go' });

      expect(model.calls).toHaveLength(3);
      expect(ran).toEqual(['a', 'b', 'c']);
      expect(result.text).toBe('Token budget exhausted: this run has used 45 of its 40 tokens. No further model calls are made.');
      const records = result.decisions.filter((record) => record.lifecycle === 'beforeModelCall');
      expect(records.map((record) => [record.stepNumber, record.action])).toEqual([
        [0, 'proceed'],
        [1, 'proceed'],
        [2, 'proceed'],
        [3, 'deny'],
      ]);
    });

    it('per user: counts each completed step once, across runs (the last step of a run has no next call)', async () => {
      const { tools } = recordingTools();
      const store = createMemoryStore();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'user', maxTokens: 1_000, store })] });
      const runtimeContext = { userId: 'alice' };
      const fourSteps = scriptedModel(step(search('a')), step(search('b')), step(search('c')), step(text('done')));
      const twoSteps = scriptedModel(step(search('d')), step(text('done')));

      await run(interventions, mode, { model: fourSteps, tools, stopWhen: isStepCount(10), prompt: 'go', runtimeContext });
      // steps 0, 1, 2 were counted before steps 1, 2, 3: 45 tokens, not 15 + 30 + 45
      expect(await store.get('call-budget:user=alice:tokens')).toBe('45');
      await run(interventions, mode, { model: twoSteps, tools, stopWhen: isStepCount(10), prompt: 'go', runtimeContext });
      expect(await store.get('call-budget:user=alice:tokens')).toBe('60');
    });

    it('per user: a run that starts with the budget used up ends at once, without a model call', async () => {
      const store = createMemoryStore();
      await store.set('call-budget:user=alice:tokens', '100');
      const interventions = createInterventions({ handlers: [callBudget({ per: 'user', maxTokens: 100, store, exit: 'guide' })] });
      const model = scriptedModel(step(text('never called')));

      const result = await run(interventions, mode, { model, prompt: 'go', runtimeContext: { userId: 'alice' } });

      expect(model.calls).toHaveLength(0);
      expect(result.text).toBe('Token budget exhausted: this user has used 100 of their 100 tokens. No further model calls are made.');
    });

    it("exit 'guide': one more model call to wrap up, told why, whose tool calls do not run; then the run ends", async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxTokens: 30, exit: 'guide' })] });
      const model = scriptedModel(
        step(search('a')), // 15
        step(search('b')), // 30: used up
        step(search('c')), // the wrap-up call: the model still calls a tool
        step(text('never called')),
      );

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'go' });

      expect(model.calls).toHaveLength(3);
      expect(userTexts(model.calls[2]?.prompt).at(-1)).toBe(
        '[call-budget] Token budget exhausted: this run has used 30 of its 30 tokens. This is your last model call: answer now with what you have, without calling tools.',
      );
      expect(userTexts(model.calls[1]?.prompt).some((line) => line.includes('budget'))).toBe(false);
      // the wrap-up call was told to answer without tools: the one it calls anyway is not run
      expect(ran).toEqual(['a', 'b']);
      expect(
        result.decisions.filter((record) => record.lifecycle === 'beforeToolCall').map((record) => [record.toolCallId, record.action]),
      ).toEqual([
        ['a', 'proceed'],
        ['b', 'proceed'],
        ['c', 'deny'],
      ]);
      const denial = result.responseMessages
        .flatMap((message) => (message.role === 'tool' ? message.content : []))
        .find((part) => part.type === 'tool-result' && part.toolCallId === 'c');
      expect(denial).toMatchObject({
        output: {
          type: 'execution-denied',
          reason: expect.stringContaining(
            'Token budget exhausted: this run has used 30 of its 30 tokens. That was the last model call, so its tool calls are not run.',
          ),
        },
      });
      expect(result.text).toBe('Token budget exhausted: this run has used 45 of its 30 tokens. No further model calls are made.');
    });

    it("exit 'guide': the wrap-up answer ends the run normally", async () => {
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxTokens: 15, exit: 'guide' })] });
      const { tools } = recordingTools();
      const model = scriptedModel(step(search('a')), step(text('Here is what I found.')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'go' });

      expect(model.calls).toHaveLength(2);
      expect(result.text).toBe('Here is what I found.');
    });

    it("exit 'confirm' cannot ask before a model call: it denies there", async () => {
      const { tools } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxTokens: 15, exit: 'confirm' })] });
      const model = scriptedModel(step(search('a')), step(text('never called')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'go' });

      expect(model.calls).toHaveLength(1);
      expect(result.text).toContain('Token budget exhausted');
      expect(result.decisions.at(-1)).toMatchObject({ lifecycle: 'beforeModelCall', action: 'deny' });
    });
  });

  describe('maxCost', () => {
    it("should add each step's cost and end the run past the budget", async () => {
      const { tools } = recordingTools();
      const priced: string[] = [];
      const interventions = createInterventions({
        handlers: [
          callBudget({
            per: 'run',
            maxCost: 0.0001,
            // $2 per million input tokens, $8 per million output tokens
            cost: (usage, step) => {
              priced.push(step.model.modelId);
              return ((usage.inputTokens ?? 0) * 2 + (usage.outputTokens ?? 0) * 8) / 1e6;
            },
          }),
        ],
      });
      // each step costs 0.00006: the second one goes past 0.0001
      const model = scriptedModel(step(search('a')), step(search('b')), step(text('never called')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'go' });

      expect(model.calls).toHaveLength(2);
      expect(priced).toEqual(['mock-model-id', 'mock-model-id']);
      expect(result.text).toBe(
        'Cost budget exhausted: this run has used 0.00012 of its 0.0001 cost budget. No further model calls are made.',
      );
    });
  });

  describe('failures follow onError', () => {
    const failingStore = (): Store => ({
      ...createMemoryStore(),
      get: async () => {
        throw new Error('ECONNREFUSED');
      },
      take: async () => {
        throw new Error('ECONNREFUSED');
      },
    });

    it("'deny' (default): a failing store ends the run before the model call, naming the check", async () => {
      const model = scriptedModel(step(text('never called')));
      const interventions = createInterventions({ handlers: [callBudget({ per: 'run', maxTokens: 100, store: failingStore() })] });

      const result = await run(interventions, mode, { model, prompt: 'go' });

      expect(model.calls).toHaveLength(0);
      expect(result.text).toBe('The "call-budget" check failed, so this was blocked (fail closed).');
    });

    it("'deny' (default): a run without a user fails closed", async () => {
      const { tools, ran } = recordingTools();
      const interventions = createInterventions({ handlers: [callBudget({ per: 'user', maxToolCalls: 5 })] });
      const model = scriptedModel(step(search('a')), step(text('ok')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(ran).toEqual([]);
      expect(result.decisions[0]).toMatchObject({ action: 'deny', reason: expect.stringContaining('needs runtimeContext.userId') });
    });

    it("'proceed': the run goes on", async () => {
      const model = scriptedModel(step(text('answered')));
      const interventions = createInterventions({
        handlers: [callBudget({ per: 'run', maxTokens: 100, store: failingStore(), onError: 'proceed' })],
      });

      expect((await run(interventions, mode, { model, prompt: 'go' })).text).toBe('answered');
    });

    it("'throw': InterventionHandlerError", async () => {
      const model = scriptedModel(step(text('never called')));
      const interventions = createInterventions({
        handlers: [callBudget({ per: 'run', maxTokens: 100, store: failingStore(), onError: 'throw' })],
      });

      const error = await run(interventions, mode, { model, prompt: 'go' }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

      expect(InterventionHandlerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'call-budget', lifecycle: 'beforeModelCall' });
    });
  });
});

describe('callBudget options', () => {
  it('should need a budget, a cost function with maxCost, and valid numbers', () => {
    expect(() => callBudget({ per: 'run' })).toThrow(/set at least one of maxToolCalls, maxTokens, maxCost/);
    expect(() => callBudget({ per: 'run', maxCost: 1 })).toThrow(/maxCost needs cost/);
    expect(() => callBudget({ per: 'run', maxTokens: -1 })).toThrow(InvalidHandlerError);
    expect(() => callBudget({ per: 'run', maxTokens: Number.NaN })).toThrow(InvalidHandlerError);
    expect(() => callBudget({ per: 'user', maxTokens: 1, windowMs: 0 })).toThrow(/windowMs must be a positive number/);
    expect(() => callBudget({ per: 'tool' as 'run', maxTokens: 1 })).toThrow(/per must be 'run' or 'user'/);
  });

  it('should register only the lifecycle methods its budgets need', () => {
    const methods = (handler: object) =>
      Object.entries(handler)
        .filter(([, value]) => typeof value === 'function')
        .map(([key]) => key);
    expect(methods(callBudget({ per: 'run', maxToolCalls: 1 }))).toEqual(['beforeToolCall']);
    expect(methods(callBudget({ per: 'run', maxTokens: 1 }))).toEqual(['beforeModelCall']);
    expect(methods(callBudget({ per: 'run', maxTokens: 1, exit: 'guide' }))).toEqual(['beforeToolCall', 'beforeModelCall']);
    expect(methods(callBudget({ per: 'run', maxToolCalls: 1, maxCost: 1, cost: () => 0 }))).toEqual(['beforeToolCall', 'beforeModelCall']);
    expect(callBudget({ per: 'run', maxToolCalls: 1 })).toMatchObject({ name: 'call-budget', onError: 'deny' });
  });
});
