/**
 * Handlers have a default timeout, through `interventions.generateText` and
 * `interventions.streamText`: a handler without `timeoutMs` that does not
 * settle within the runtime's `handlerTimeoutMs` (30 s unless set) is
 * treated as having thrown, and its `onError` decides; a handler's own
 * `timeoutMs` replaces the default, and `timeoutMs: false` turns it off.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, HandlerTimeoutError, InterventionActions } from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

describe.each(MODES)('the default handler timeout (%s)', (mode) => {
  const never = () => new Promise<never>(() => {});
  const slowly = (ms: number) => () =>
    new Promise<ReturnType<typeof InterventionActions.proceed>>((resolve) => setTimeout(() => resolve(InterventionActions.proceed()), ms));
  const tools = (ran: string[]) => ({
    t: tool({ inputSchema: z.object({}), execute: async () => (ran.push('t'), 'ran') }),
  });

  it("should time out a handler without timeoutMs after the runtime's handlerTimeoutMs, following its onError", async () => {
    const ran: string[] = [];
    const throws = createInterventions({ handlerTimeoutMs: 30, handlers: [defineHandler({ name: 'stuck', beforeToolCall: never })] });
    const error = await rejectionOf(
      run(throws, mode, {
        model: scriptedModel(step(toolCall('c1', 't', {})), step(text('x'))),
        tools: tools(ran),
        stopWhen: isStepCount(3),
        prompt: 'go',
      }),
    );
    expect(HandlerTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ handlerName: 'stuck', timeoutMs: 30 });

    const denies = createInterventions({
      handlerTimeoutMs: 30,
      handlers: [defineHandler({ name: 'stuck', onError: 'deny', beforeToolCall: never })],
    });
    const model = scriptedModel(step(toolCall('c1', 't', {})), step(text('blocked')));
    const outcome = await run(denies, mode, { model, tools: tools(ran), stopWhen: isStepCount(3), prompt: 'go' });
    expect(outcome.text).toBe('blocked');
    expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('The \\"stuck\\" check failed');
    expect(HandlerTimeoutError.isInstance(outcome.decisions[0]?.error)).toBe(true);
    expect(ran).toEqual([]);
  });

  it("should let a handler's own timeoutMs replace the default, and timeoutMs: false turn it off", async () => {
    const ran: string[] = [];
    const interventions = createInterventions({
      handlerTimeoutMs: 10,
      handlers: [
        defineHandler({ name: 'patient', timeoutMs: 1_000, beforeToolCall: slowly(40) }),
        defineHandler({ name: 'unbounded', timeoutMs: false, beforeToolCall: slowly(40) }),
      ],
    });
    const outcome = await run(interventions, mode, {
      model: scriptedModel(step(toolCall('c1', 't', {})), step(text('done'))),
      tools: tools(ran),
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    expect(outcome.text).toBe('done');
    expect(ran).toEqual(['t']);
    expect(outcome.decisions.map((record) => [record.handler, record.action, record.error])).toEqual([
      ['patient', 'proceed', undefined],
      ['unbounded', 'proceed', undefined],
    ]);
  });

  it('should time out after 30 seconds when nothing is configured', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ran: string[] = [];
      const interventions = createInterventions({ handlers: [defineHandler({ name: 'stuck', beforeToolCall: never })] });
      const settled = rejectionOf(
        run(interventions, mode, {
          model: scriptedModel(step(toolCall('c1', 't', {})), step(text('x'))),
          tools: tools(ran),
          stopWhen: isStepCount(3),
          prompt: 'go',
        }),
      );
      await vi.advanceTimersByTimeAsync(29_999);
      let done = false;
      void settled.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await settled;
      expect(HandlerTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'stuck', timeoutMs: 30_000 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('handler timeout options', () => {
  it('should reject an invalid handlerTimeoutMs and an invalid timeoutMs', () => {
    const handler = defineHandler({ name: 'h', beforeToolCall: () => InterventionActions.proceed() });
    expect(() => createInterventions({ handlerTimeoutMs: 0, handlers: [handler] })).toThrow(TypeError);
    expect(() => createInterventions({ handlerTimeoutMs: Number.NaN })).toThrow('handlerTimeoutMs must be a positive number');
    expect(() => createInterventions({ handlers: [{ ...handler, timeoutMs: -5 }] })).toThrow('or false for no timeout');
    expect(() => createInterventions({ handlerTimeoutMs: false, handlers: [{ ...handler, timeoutMs: false }] })).not.toThrow();
  });
});
