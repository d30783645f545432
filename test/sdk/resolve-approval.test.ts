/**
 * The approval point beyond its common case loads on demand (src/sdk/resolve-approval.ts):
 * the first call of a process that needs it waits for its code. This file's first test is
 * that first call, in its own worker.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionHandlerError } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

describe('the approval point beyond its common case, loaded on demand', () => {
  it("should not leave a handler's failure unhandled while its code loads: the run rejects with it, naming the handler, and runs nothing", async () => {
    const ran: string[] = [];
    const broken = defineHandler({
      name: 'broken',
      toolCallActions: ['deny'],
      beforeToolCall: () => {
        throw new Error('policy service down');
      },
    });
    const tools = {
      echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(text), text) }),
    };
    const model = scriptedModel(step(toolCall('c1', 'echo', { text: 'one' })), step(text('done')));

    const outcome = await createInterventions({ handlers: [broken] })
      .generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(2) })
      .then(
        () => 'resolved',
        (error: unknown) => error,
      );

    expect(InterventionHandlerError.isInstance(outcome)).toBe(true);
    expect((outcome as InterventionHandlerError).handlerName).toBe('broken');
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });
});
