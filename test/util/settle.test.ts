/**
 * A handler's promise is settled against its time limit and the run's abort
 * signal: whatever ends the wait first, the handler's own promise is never
 * left to reject unhandled (Node would report it, or end the process).
 */
import { isStepCount, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('a handler whose promise rejects once the run was aborted', () => {
  it.each(['already aborted when it returns', 'aborted while it waits'] as const)(
    'should leave no unhandled rejection (%s), and run nothing',
    async (when) => {
      process.on('unhandledRejection', onUnhandled);
      const controller = new AbortController();
      const ran: string[] = [];
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'slow-check',
            beforeToolCall: () => {
              if (when === 'already aborted when it returns') {
                controller.abort(new Error('the user left'));
                return Promise.reject(new Error('the check failed after the abort'));
              }
              setTimeout(() => controller.abort(new Error('the user left')), 5);
              return new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the check failed after the abort')), 20));
            },
          }),
        ],
      });
      const tools = { echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(text), text) }) };
      const outcome = await interventions
        .generateText({
          model: scriptedModel(step(toolCall('c1', 'echo', { text: 'hi' })), step(text('done'))),
          tools,
          stopWhen: isStepCount(2),
          prompt: 'x',
          abortSignal: controller.signal,
        })
        .then(
          () => 'resolved',
          () => 'rejected',
        );
      // the handler's promise rejects after the run gave up on it: wait past that, and for Node to report
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(outcome).toBe('rejected');
      expect(ran).toEqual([]);
      expect(unhandled).toEqual([]);
    },
  );
});
