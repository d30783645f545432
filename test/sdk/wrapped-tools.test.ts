/**
 * Tools a runtime wrapped for plain calls (`wrapTools`), given to the same
 * runtime's own wrappers: the run guards the originals itself, so every
 * guard meets each call once, as with the tools as defined.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

function echoTools(ran: string[]) {
  return { echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(text), text) }) };
}

describe.each(['generateText', 'streamText'] as const)('wrapped tools given to the runtime’s own %s', (mode) => {
  it.each(['as defined', 'wrapped by the runtime'] as const)('meet each guard once per call (tools %s)', async (given) => {
    const seen: string[] = [];
    const interventions = createInterventions({
      handlers: [
        {
          name: 'counter',
          beforeToolCall: (event) => (seen.push(`before ${event.toolCall.toolCallId}`), InterventionActions.proceed()),
          afterToolCall: (event) => (seen.push(`after ${event.toolCall.toolCallId}`), InterventionActions.proceed()),
        },
      ],
    });
    const ran: string[] = [];
    const tools = given === 'as defined' ? echoTools(ran) : interventions.wrapTools(echoTools(ran));
    const options = {
      model: scriptedModel(step(toolCall('c1', 'echo', { text: 'one' }), toolCall('c2', 'echo', { text: 'two' })), step(text('done'))),
      tools,
      stopWhen: isStepCount(2),
      prompt: 'x',
    };
    const result = mode === 'generateText' ? await interventions.generateText(options) : interventions.streamText(options);
    if (mode === 'streamText') await (result as ReturnType<typeof interventions.streamText>).consumeStream();
    const decisions = await Promise.resolve(result.interventions.decisions);

    expect(ran).toEqual(['one', 'two']);
    expect([...seen].sort()).toEqual(['after c1', 'after c2', 'before c1', 'before c2']);
    expect(decisions.map((record) => `${record.lifecycle} ${record.toolCallId}`).sort()).toEqual([
      'afterToolCall c1',
      'afterToolCall c2',
      'beforeToolCall c1',
      'beforeToolCall c2',
    ]);
  });
});
