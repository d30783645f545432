import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, InvalidHookResultError } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const lookup = tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `result for ${q}` });

describe('hook results', () => {
  it('should read an empty object from an interceptor as "no change" (seed 002: return {})', async () => {
    const interventions = createInterventions({
      hooks: { onToolCallResult: () => ({}) as never, onResponse: () => ({}) as never },
    });
    const model = scriptedModel(step(toolCall('c1', 'lookup', { q: 'x' })), step(text('ok')));
    const result = await interventions.generateText({ model, tools: { lookup }, stopWhen: isStepCount(3), prompt: 'go' });
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'text', value: 'result for x' });
    expect(result.text).toBe('ok');
  });

  it("should continue a run from a drainFollowUp hook returning seed 002's { input }", async () => {
    let asked = 0;
    const interventions = createInterventions({
      hooks: { drainFollowUp: () => (asked++ === 0 ? { input: 'Please continue with the next step.' } : {}) },
    });
    const model = scriptedModel(step(text('first')), step(text('second')));
    const result = await interventions.generateText({ model, maxSteps: 5, prompt: 'go' });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.prompt.at(-1)).toEqual({
      role: 'user',
      // labelled as the library's text, not the user's words (flowPolicy reads it)
      content: [
        { type: 'text', text: 'Please continue with the next step.', providerOptions: { 'ai-interventions': { injected: 'follow-up' } } },
      ],
    });
    // the injected message is part of what the run added to the conversation
    expect(result.responseMessages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant']);
  });

  it('should reject a drain result it cannot read, naming the hook', async () => {
    const interventions = createInterventions({
      hooks: {
        drainFollowUp: function nextInput() {
          return 42 as never;
        },
      },
    });
    const error = await interventions
      .generateText({ model: scriptedModel(step(text('first'))), maxSteps: 5, prompt: 'go' })
      .catch((caught: unknown) => caught);
    expect(InvalidHookResultError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ hook: 'drainFollowUp hook "nextInput"' });
  });
});
