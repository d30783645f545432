/**
 * An abort right after the call starts, with a model that ignores the
 * signal: the raw SDK runs the tool and resolves, and so does the wrapped
 * call when every gate and handler lets the call through.
 */
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { step, text, toolCall } from '../helpers/scripted-model.ts';

function setup() {
  const ran: string[] = [];
  const controller = new AbortController();
  let calls = 0;
  // aborts once the call has started, and answers anyway
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      controller.abort();
      return calls++ === 0 ? step(toolCall('c1', 'lookup', { q: 'x' })) : step(text('done'));
    },
  });
  const tools = {
    lookup: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        ran.push(q);
        return `found ${q}`;
      },
    }),
  };
  return { ran, controller, model, tools };
}

describe('an abort right after the call starts', () => {
  it('should run the tool and resolve, as the raw SDK does, with a no-op gate and handler', async () => {
    const raw = setup();
    const rawResult = await generateText({ model: raw.model, tools: raw.tools, prompt: 'go', abortSignal: raw.controller.signal });

    const wrapped = setup();
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'no-op', beforeToolCall: () => InterventionActions.proceed() })],
      hooks: { gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.proceed()) },
    });
    const result = await interventions.generateText({
      model: wrapped.model,
      tools: wrapped.tools,
      prompt: 'go',
      abortSignal: wrapped.controller.signal,
    });
    expect(wrapped.ran).toEqual(raw.ran);
    expect(raw.ran).toEqual(['x']);
    expect(result.text).toBe(rawResult.text);
    expect(result.steps.map((item) => item.finishReason)).toEqual(rawResult.steps.map((item) => item.finishReason));
  });

  it('should still never run a call a gate denies', async () => {
    const wrapped = setup();
    const interventions = createInterventions({
      hooks: { gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.deny('No.')) },
    });
    await interventions
      .generateText({ model: wrapped.model, tools: wrapped.tools, prompt: 'go', abortSignal: wrapped.controller.signal })
      .catch(() => undefined);
    expect(wrapped.ran).toEqual([]);
  });
});
