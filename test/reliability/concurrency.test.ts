import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, createMessageQueue, defineHandler, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

describe('200 concurrent runs on one runtime', () => {
  it('should keep decisions, counters, drafts and steering per run and per user', async () => {
    // a stateful handler keyed by the trusted runtimeContext user: each user may call `spend` twice
    const spent = new Map<string, number>();
    const budget = defineHandler({
      name: 'budget',
      beforeToolCall: async (event: BeforeToolCallEvent) => {
        const user = String(event.runtimeContext.userId);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        const used = spent.get(user) ?? 0;
        if (used >= 2) return InterventionActions.deny(`budget exhausted for ${user}`);
        spent.set(user, used + 1);
        return InterventionActions.transform<BeforeToolCallEvent>((draft) => {
          (draft.toolCall.input as { note: string }).note = `approved for ${user}`;
        });
      },
    });
    const interventions = createInterventions({ handlers: [budget] });

    const runs = Array.from({ length: 200 }, async (_, index) => {
      const user = `user-${index % 50}`;
      const executed: string[] = [];
      const steering = createMessageQueue();
      steering.push(`steer ${index}`);
      const model = scriptedModel(step(toolCall(`c${index}`, 'spend', { note: `run ${index}` })), step(text(`done ${index}`)));
      const result = await interventions.generateText({
        model,
        tools: {
          spend: tool({
            inputSchema: z.object({ note: z.string() }),
            execute: async ({ note }) => {
              executed.push(note);
              return note;
            },
          }),
        },
        runtimeContext: { userId: user },
        steering,
        maxSteps: 3,
        stopWhen: isStepCount(3),
        prompt: `run ${index}`,
      });
      return { index, user, executed, model, result, steering };
    });

    const results = await Promise.all(runs);
    const allowedPerUser = new Map<string, number>();
    for (const { index, user, executed, model, result, steering } of results) {
      // every record of a run is about that run's call only
      expect(result.interventions.decisions.map((record) => record.toolCallId)).toEqual([`c${index}`]);
      const [record] = result.interventions.decisions;
      if (record?.action === 'transform') {
        expect(executed).toEqual([`approved for ${user}`]);
        allowedPerUser.set(user, (allowedPerUser.get(user) ?? 0) + 1);
      } else {
        expect(record).toMatchObject({ action: 'deny', reason: `budget exhausted for ${user}` });
        expect(executed).toEqual([]);
        expect(JSON.stringify(toolResultsSent(model, 1))).toContain(`budget exhausted for ${user}`);
      }
      // the run's own steering message, and only it, was delivered after its tool results
      const sent = JSON.stringify(model.calls[1]?.prompt);
      expect(sent).toContain(`steer ${index}`);
      expect(sent.match(/steer \d+/g)).toEqual([`steer ${index}`]);
      expect(steering.size).toBe(0);
      expect(result.text).toBe(`done ${index}`);
    }
    // each of the 50 users ran exactly twice out of 4 attempts
    expect([...allowedPerUser.values()]).toEqual(Array.from({ length: 50 }, () => 2));
  });
});
