import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions, InvalidActionError } from '../../src/index.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const tools = { wipe: tool({ inputSchema: z.object({}), execute: async () => 'wiped' }) };

describe.each(MODES)('a short reason for people (interventions.%s)', (mode) => {
  it('should record the second argument of deny, guide and confirm as display, and never send it to the model', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({ name: 'asker', beforeToolCall: () => InterventionActions.confirm('Wipe everything?', 'Wiping needs you') }),
        defineHandler({ name: 'guide', beforeToolCall: () => InterventionActions.guide('Say which disk.', 'Which disk?') }),
        defineHandler({ name: 'deny', beforeToolCall: () => InterventionActions.deny('Wiping is disabled (ticket 42).', 'Wiping is off') }),
      ],
    });
    const model = scriptedModel(step(toolCall('w1', 'wipe', {})), step(text('ok')));
    const outcome = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'wipe' });
    expect(outcome.decisions.map(({ handler, display }) => ({ handler, display }))).toEqual([
      { handler: 'asker', display: 'Wiping needs you' },
      { handler: 'guide', display: 'Which disk?' },
      { handler: 'deny', display: 'Wiping is off' },
    ]);
    const read = JSON.stringify(toolResultsSent(model, 1).w1);
    expect(read).toContain('Wiping is disabled (ticket 42).');
    expect(read).not.toContain('Wiping is off');
  });

  it('should reject a display that is not a string, naming the handler', async () => {
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'odd', beforeToolCall: () => ({ type: 'deny', reason: 'no', display: 42 }) as never })],
    });
    const error = await run(interventions, mode, { model: scriptedModel(step(toolCall('w1', 'wipe', {}))), tools, prompt: 'wipe' }).catch(
      (caught: unknown) => caught,
    );
    expect(InvalidActionError.isInstance(error)).toBe(true);
    expect((error as InvalidActionError).message).toContain('Intervention handler "odd" returned deny with a display that is not a string');
  });
});
