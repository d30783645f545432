/**
 * `rateLimit` through the public wrappers (`interventions.generateText` and
 * `interventions.streamText`) on a scripted model: which tools ran, what the
 * model read for the calls over the limit, and the decision records.
 */
import { isStepCount, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { rateLimit } from '../../src/builtins/rate-limit.ts';
import {
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  type DecisionRecord,
  InterventionActions,
  InterventionHandler,
  InterventionHandlerError,
  InvalidHandlerError,
} from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import type { Store } from '../../src/store/store.ts';
import { deniedText, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

/** Tools whose executions are recorded. */
function recordingTools() {
  const ran: Array<{ readonly tool: string; readonly input: unknown }> = [];
  const make = <SCHEMA extends z.ZodType>(name: string, inputSchema: SCHEMA) =>
    tool({
      inputSchema,
      execute: async (input: unknown) => {
        ran.push({ tool: name, input });
        return `${name} ok`;
      },
    });
  const tools = {
    search: make('search', z.object({ q: z.string() })),
    send_email: make('send_email', z.object({ to: z.string(), body: z.string() })),
    bash: make('bash', z.object({ command: z.string() })),
    read: make('read', z.object({ path: z.string() })),
    lookup: make('lookup', z.object({ a: z.number().optional(), b: z.number().optional() })),
  };
  const inputsOf = (name: string) => ran.filter((entry) => entry.tool === name).map((entry) => entry.input);
  return { tools, ran, inputsOf };
}

/** A handler registered after another one, recording the tool calls it sees (seed 000). */
class ExpensiveSteering extends InterventionHandler {
  readonly name = 'expensive-steering';
  readonly seen: string[] = [];

  override beforeToolCall(event: BeforeToolCallEvent) {
    this.seen.push(event.toolCall.toolCallId);
    return InterventionActions.proceed();
  }
}

const summary = (records: readonly DecisionRecord[]) =>
  records.map(({ handler, lifecycle, action, toolCallId, enforced }) => ({ handler, lifecycle, action, toolCallId, enforced }));

const HOUR = 3_600_000;

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('rateLimit through interventions.%s', (mode) => {
  describe('seed 000: the RateLimiter example', () => {
    it('should run ten calls, deny the eleventh with its reason, and skip the later handlers for it', async () => {
      const { tools, inputsOf } = recordingTools();
      const steering = new ExpensiveSteering();
      // the seed's RateLimiter: one counter for every call of this handler, 10 allowed
      const interventions = createInterventions({
        handlers: [rateLimit({ name: 'rate-limiter', limit: 10, windowMs: HOUR, per: [] }), steering],
      });
      const searches = Array.from({ length: 11 }, (_, index) => toolCall(`s${index + 1}`, 'search', { q: `term ${index + 1}` }));
      const model = scriptedModel(step(...searches), step(text('Done searching.')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Search a lot' });

      expect(inputsOf('search')).toHaveLength(10);
      expect(inputsOf('search')).not.toContainEqual({ q: 'term 11' });
      const sent = toolResultsSent(model, 1);
      expect(sent.s10).toEqual({ type: 'text', value: 'search ok' });
      expect(sent.s11).toMatchObject({ type: 'execution-denied' });
      expect(deniedText(sent.s11)).toContain('was blocked and was not executed');
      expect(deniedText(sent.s11)).toMatch(/Rate limit reached: 10 calls per hour\. The limit resets in \d+ (minutes|seconds?)/);
      expect(steering.seen).toHaveLength(10);
      expect(steering.seen).not.toContain('s11');
      expect(summary(result.decisions.filter((record) => record.toolCallId === 's11'))).toEqual([
        { handler: 'rate-limiter', lifecycle: 'beforeToolCall', action: 'deny', toolCallId: 's11', enforced: true },
      ]);
      expect(result.decisions.filter((record) => record.toolCallId === 's1').map((record) => record.handler)).toEqual([
        'rate-limiter',
        'expensive-steering',
      ]);
      expect(result.text).toBe('Done searching.');
    });

    it("should keep counting across runs of the same interventions (the counter is the handler's)", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 10, windowMs: HOUR, per: [] })] });
      const first = scriptedModel(
        step(...Array.from({ length: 7 }, (_, index) => toolCall(`a${index}`, 'search', { q: `a${index}` }))),
        step(text('a')),
      );
      const second = scriptedModel(
        step(...Array.from({ length: 7 }, (_, index) => toolCall(`b${index}`, 'search', { q: `b${index}` }))),
        step(text('b')),
      );

      await run(interventions, mode, { model: first, tools, stopWhen: isStepCount(3), prompt: 'one' });
      await run(interventions, mode, { model: second, tools, stopWhen: isStepCount(3), prompt: 'two' });

      expect(inputsOf('search')).toHaveLength(10);
      const sent = toolResultsSent(second, 1);
      expect(['b0', 'b1', 'b2'].map((id) => sent[id])).toEqual(Array(3).fill({ type: 'text', value: 'search ok' }));
      expect(['b3', 'b4', 'b5', 'b6'].map((id) => (sent[id] as { type: string }).type)).toEqual(Array(4).fill('execution-denied'));
    });
  });

  describe("seed 002: the per-tool rate limit (beforeToolExecute's callCounts)", () => {
    it('should allow ten calls per tool, carry the count over turns, and leave other tools alone', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 10, windowMs: HOUR, per: 'tool' })] });
      const bashCalls = Array.from({ length: 8 }, (_, index) => toolCall(`b${index + 1}`, 'bash', { command: `echo ${index + 1}` }));
      const moreBash = Array.from({ length: 4 }, (_, index) => toolCall(`b${index + 9}`, 'bash', { command: `echo ${index + 9}` }));
      const model = scriptedModel(
        step(...bashCalls, toolCall('r1', 'read', { path: 'a.txt' })),
        // the count carries over to the next turn: 2 more pass, then the limit
        step(...moreBash, toolCall('r2', 'read', { path: 'b.txt' })),
        step(text('Rate limited after ten echoes.')),
      );

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Echo a lot' });

      expect(inputsOf('bash')).toHaveLength(10);
      expect(inputsOf('read')).toEqual([{ path: 'a.txt' }, { path: 'b.txt' }]);
      const sent = toolResultsSent(model, 2);
      expect(sent.b10).toEqual({ type: 'text', value: 'bash ok' });
      for (const id of ['b11', 'b12']) {
        expect(sent[id]).toMatchObject({ type: 'execution-denied' });
        expect(deniedText(sent[id])).toContain('Rate limit reached: 10 calls to "bash" per hour.');
      }
      expect(sent.r2).toEqual({ type: 'text', value: 'read ok' });
      expect(result.text).toBe('Rate limited after ten echoes.');
      expect(result.decisions.filter((record) => record.action === 'deny').map((record) => record.toolCallId)).toEqual(['b11', 'b12']);
    });
  });

  describe('per', () => {
    it('should count per user (runtimeContext.userId) across runs, and fail closed for a run without a user', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 2, windowMs: HOUR, per: 'user' })] });
      const oneSearch = (id: string) => scriptedModel(step(toolCall(id, 'search', { q: id })), step(text(`done ${id}`)));
      const models = { a1: oneSearch('a1'), a2: oneSearch('a2'), a3: oneSearch('a3'), b1: oneSearch('b1'), anon: oneSearch('anon') };

      for (const [id, userId] of [
        ['a1', 'alice'],
        ['a2', 'alice'],
        ['a3', 'alice'],
        ['b1', 'bob'],
      ] as const) {
        await run(interventions, mode, { model: models[id], tools, stopWhen: isStepCount(3), prompt: id, runtimeContext: { userId } });
      }
      const anonymous = await run(interventions, mode, { model: models.anon, tools, stopWhen: isStepCount(3), prompt: 'anon' });

      expect(inputsOf('search')).toEqual([{ q: 'a1' }, { q: 'a2' }, { q: 'b1' }]);
      expect(deniedText(toolResultsSent(models.a3, 1).a3)).toContain('Rate limit reached: 2 calls per hour for this user.');
      // no user: fails closed (the default onError is 'deny'), and the model and the record say what is missing
      const missing =
        '"rate-limit" needs runtimeContext.userId (it counts calls per user), and this run has none, so the call was not run.';
      expect(deniedText(toolResultsSent(models.anon, 1).anon)).toContain(missing);
      expect(anonymous.decisions).toEqual([
        expect.objectContaining({ handler: 'rate-limit', action: 'deny', reason: expect.stringContaining(missing) }),
      ]);
    });

    it('should follow onError when a run has no user: proceed lets the call run and records why', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 2, windowMs: HOUR, per: 'user', onError: 'proceed' })] });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('ok')));
      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
      expect(inputsOf('search')).toEqual([{ q: 'x' }]);
      expect(String(result.decisions[0]?.error)).toContain('needs runtimeContext.userId');
    });

    it('should read the user with `user` when given', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 1, windowMs: HOUR, per: 'user', user: (context) => (context.session as { sub: string }).sub })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' }), toolCall('c2', 'search', { q: '2' })), step(text('ok')));

      await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
        runtimeContext: { session: { sub: 'user-7' } },
      });

      expect(inputsOf('search')).toEqual([{ q: '1' }]);
      expect(deniedText(toolResultsSent(model, 1).c2)).toContain('for this user');
    });

    it('should count per run: concurrent runs do not share a counter', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 2, windowMs: HOUR, per: 'run' })] });
      const models = ['x', 'y', 'z'].map((run) =>
        scriptedModel(step(...[1, 2, 3].map((index) => toolCall(`${run}${index}`, 'search', { q: `${run}${index}` }))), step(text(run))),
      );

      await Promise.all(models.map((model) => run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' })));

      expect(inputsOf('search')).toHaveLength(6);
      for (const [index, model] of models.entries()) {
        const sent = toolResultsSent(model, 1);
        const id = `${'xyz'[index]}3`;
        expect(deniedText(sent[id])).toContain('Rate limit reached: 2 calls per hour in this run.');
      }
    });

    it('should count per tool and arguments, whatever the order of their keys', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 1, windowMs: HOUR, per: ['tool', 'arguments'] })] });
      const model = scriptedModel(
        step(
          toolCall('c1', 'lookup', '{"a":1,"b":2}'),
          toolCall('c2', 'lookup', '{"b":2,"a":1}'), // the same arguments
          toolCall('c3', 'lookup', '{"a":1,"b":3}'),
          toolCall('c4', 'search', '{"q":"x"}'),
          toolCall('c5', 'search', '{"q":"x"}'),
        ),
        step(text('ok')),
      );

      await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('lookup')).toEqual([
        { a: 1, b: 2 },
        { a: 1, b: 3 },
      ]);
      expect(inputsOf('search')).toEqual([{ q: 'x' }]);
      const sent = toolResultsSent(model, 1);
      expect(deniedText(sent.c2)).toContain('Rate limit reached: 1 call to "lookup" with these arguments per hour.');
      expect(deniedText(sent.c5)).toContain('1 call to "search" with these arguments');
    });

    it('should count per the key a function returns (e.g. a tenant)', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 2, windowMs: HOUR, per: async (event) => String(event.runtimeContext.tenant) })],
      });
      const acme = scriptedModel(step(...[1, 2, 3].map((index) => toolCall(`a${index}`, 'search', { q: `a${index}` }))), step(text('ok')));
      const initech = scriptedModel(step(toolCall('i1', 'search', { q: 'i1' })), step(text('ok')));

      await run(interventions, mode, { model: acme, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { tenant: 'acme' } });
      await run(interventions, mode, {
        model: initech,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
        runtimeContext: { tenant: 'initech' },
      });

      expect(inputsOf('search')).toEqual([{ q: 'a1' }, { q: 'a2' }, { q: 'i1' }]);
      expect(deniedText(toolResultsSent(acme, 1).a3)).toContain('Rate limit reached: 2 calls per hour.');
    });

    it('should count only the listed tools', async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ name: 'email-rate', limit: 1, windowMs: HOUR, per: [], tools: ['send_email'] })],
      });
      const model = scriptedModel(
        step(
          toolCall('e1', 'send_email', { to: 'a@x', body: 'hi' }),
          toolCall('s1', 'search', { q: '1' }),
          toolCall('s2', 'search', { q: '2' }),
          toolCall('e2', 'send_email', { to: 'b@x', body: 'hi' }),
        ),
        step(text('ok')),
      );

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('send_email')).toEqual([{ to: 'a@x', body: 'hi' }]);
      expect(inputsOf('search')).toHaveLength(2);
      expect(deniedText(toolResultsSent(model, 1).e2)).toContain('1 call per hour');
      expect(result.decisions.filter((record) => record.action === 'deny').map((record) => record.toolCallId)).toEqual(['e2']);
    });
  });

  describe('windows', () => {
    it('should say when the window resets, and allow calls again in the next window', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-03-01T10:00:15.000Z'));
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 1, windowMs: 60_000, per: 'tool' })] });
      const first = scriptedModel(step(toolCall('c1', 'search', { q: '1' }), toolCall('c2', 'search', { q: '2' })), step(text('ok')));
      const second = scriptedModel(step(toolCall('c3', 'search', { q: '3' })), step(text('ok')));

      await run(interventions, mode, { model: first, tools, stopWhen: isStepCount(3), prompt: 'go' });
      vi.setSystemTime(new Date('2026-03-01T10:01:00.000Z')); // the next minute
      await run(interventions, mode, { model: second, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(deniedText(toolResultsSent(first, 1).c2)).toContain(
        'Rate limit reached: 1 call to "search" per minute. The limit resets in 45 seconds (at 2026-03-01T10:01:00.000Z).',
      );
      expect(inputsOf('search')).toEqual([{ q: '1' }, { q: '3' }]);
    });

    it('should set the counters to expire with the window', async () => {
      const taken: Array<{ key: string; ttlMs: number | undefined }> = [];
      const memory = createMemoryStore();
      const store: Store = {
        ...memory,
        take: (key, options) => {
          taken.push({ key, ttlMs: options.ttlMs });
          return memory.take(key, options);
        },
      };
      const { tools } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ name: 'per-user', limit: 5, windowMs: 90_000, per: ['user', 'tool'], store })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' })), step(text('ok')));

      await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go', runtimeContext: { userId: 'a:b' } });

      const window = Math.floor(Date.now() / 90_000);
      // the user's id is encoded, so "a:b" cannot collide with another key's parts
      expect(taken).toEqual([{ key: `per-user:${window}:user=a%3Ab:tool=search`, ttlMs: 90_000 }]);
    });
  });

  describe('exit', () => {
    it("'guide': the call is not run and the model reads the limit as feedback", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({ handlers: [rateLimit({ limit: 1, windowMs: HOUR, per: 'tool', exit: 'guide' })] });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' }), toolCall('c2', 'search', { q: '2' })), step(text('ok')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('search')).toEqual([{ q: '1' }]);
      const guided = deniedText(toolResultsSent(model, 1).c2);
      expect(guided).toContain('was not executed');
      expect(guided).toContain('[rate-limit] Rate limit reached: 1 call to "search" per hour.');
      expect(guided).toContain('Do not make this call again before then; continue without it.');
      expect(result.decisions.map((record) => record.action)).toEqual(['proceed', 'guide']);
    });

    it("'confirm': a human is asked, and their approval lets the call over the limit run", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 1, windowMs: HOUR, per: 'tool', exit: 'confirm' })],
        approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const model = scriptedModel(
        step(toolCall('c1', 'search', { q: '1' }), toolCall('c2', 'search', { q: '2' })),
        step(text('Searched both.')),
      );

      const first = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('search')).toEqual([{ q: '1' }]);
      const request = first.content.find((part) => part.type === 'tool-approval-request') as
        | { approvalId: string; reason?: string; toolCall: { toolCallId: string } }
        | undefined;
      expect(request?.toolCall.toolCallId).toBe('c2');
      expect(request?.reason).toMatch(/^Rate limit reached: 1 call to "search" per hour\. .* Allow this call to "search" anyway\?$/);

      await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: [
          { role: 'user', content: 'go' },
          ...first.responseMessages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] },
        ],
      });

      expect(inputsOf('search')).toEqual([{ q: '1' }, { q: '2' }]);
      expect(toolResultsSent(model, 1).c2).toEqual({ type: 'text', value: 'search ok' });
    });
  });

  describe('store failures follow onError', () => {
    const failingStore = (): Store => ({
      ...createMemoryStore(),
      take: async () => {
        throw new Error('ECONNREFUSED 127.0.0.1:6379');
      },
    });

    it("'deny' (default): the call is blocked and the record keeps the error", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 5, windowMs: HOUR, per: 'tool', store: failingStore() })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' })), step(text('Could not search.')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('search')).toEqual([]);
      const denied = deniedText(toolResultsSent(model, 1).c1);
      expect(denied).toContain('The "rate-limit" check failed, so this was blocked (fail closed).');
      expect(denied).not.toContain('ECONNREFUSED');
      expect(result.decisions[0]).toMatchObject({ action: 'deny' });
      expect(String(result.decisions[0]?.error)).toContain('ECONNREFUSED');
    });

    it("'proceed': the call runs", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 5, windowMs: HOUR, per: 'tool', store: failingStore(), onError: 'proceed' })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' })), step(text('ok')));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('search')).toEqual([{ q: '1' }]);
      expect(String(result.decisions[0]?.error)).toContain('ECONNREFUSED');
    });

    it("'throw': the call ends with InterventionHandlerError, the store's error as its cause", async () => {
      const { tools, inputsOf } = recordingTools();
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 5, windowMs: HOUR, per: 'tool', store: failingStore(), onError: 'throw' })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' })), step(text('ok')));

      const error = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

      expect(InterventionHandlerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'rate-limit', lifecycle: 'beforeToolCall' });
      expect(String((error as Error).cause)).toContain('ECONNREFUSED');
      expect(inputsOf('search')).toEqual([]);
    });

    it('a store that hangs past timeoutMs fails the check', async () => {
      const { tools, inputsOf } = recordingTools();
      const hanging: Store = { ...createMemoryStore(), take: () => new Promise(() => {}) };
      const interventions = createInterventions({
        handlers: [rateLimit({ limit: 5, windowMs: HOUR, per: 'tool', store: hanging, timeoutMs: 50 })],
      });
      const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' })), step(text('ok')));

      await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

      expect(inputsOf('search')).toEqual([]);
      expect(deniedText(toolResultsSent(model, 1).c1)).toContain('check failed');
    });
  });

  it("'shadow' mode: counts and records the deny without blocking", async () => {
    const { tools, inputsOf } = recordingTools();
    const interventions = createInterventions({ handlers: [rateLimit({ limit: 1, windowMs: HOUR, per: [], mode: 'shadow' })] });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: '1' }), toolCall('c2', 'search', { q: '2' })), step(text('ok')));

    const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

    expect(inputsOf('search')).toHaveLength(2);
    expect(result.decisions.map((record) => [record.action, record.enforced])).toEqual([
      ['proceed', false],
      ['deny', false],
    ]);
  });
});

describe('rateLimit options', () => {
  it('should reject a limit or window that is not usable, naming the handler', () => {
    expect(() => rateLimit({ name: 'bad', limit: -1, windowMs: 1_000, per: 'run' })).toThrow(
      /rateLimit "bad": limit must be a whole number/,
    );
    expect(() => rateLimit({ limit: 1.5, windowMs: 1_000, per: 'run' })).toThrow(InvalidHandlerError);
    expect(() => rateLimit({ limit: 1, windowMs: 0, per: 'run' })).toThrow(/windowMs must be a positive number/);
    expect(() => rateLimit({ limit: 1, windowMs: Number.POSITIVE_INFINITY, per: 'run' })).toThrow(InvalidHandlerError);
  });

  it('should be a beforeToolCall handler that fails closed by default', () => {
    const handler = rateLimit({ limit: 1, windowMs: 1_000, per: 'run' });
    expect(handler).toMatchObject({ name: 'rate-limit', onError: 'deny' });
    expect(Object.keys(handler).filter((key) => typeof (handler as unknown as Record<string, unknown>)[key] === 'function')).toEqual([
      'beforeToolCall',
    ]);
  });
});
