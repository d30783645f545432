import { isStepCount, readUIMessageStream, tool, toUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

describe('the UI message stream', () => {
  it('should show denied, guided and confirmed calls in the states useChat renders', async () => {
    const ran: string[] = [];
    const interventions = createInterventions({
      approvalSecret: 'secret',
      handlers: [
        defineHandler({
          name: 'policy',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'wipe'
              ? InterventionActions.deny('Wiping is not allowed')
              : call.toolName === 'email'
                ? InterventionActions.guide('Add a subject line.')
                : InterventionActions.confirm('Deploy to production?'),
        }),
      ],
    });
    const make = (name: string) => tool({ inputSchema: z.object({}), execute: async () => (ran.push(name), 'ran') });
    const result = interventions.streamText({
      model: scriptedModel(step(toolCall('1', 'wipe', {}), toolCall('2', 'email', {}), toolCall('3', 'deploy', {})), step(text('x'))),
      tools: { wipe: make('wipe'), email: make('email'), deploy: make('deploy') },
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream: result.stream }) })) message = update;
    const parts = (message?.parts ?? []).filter((part) => part.type.startsWith('tool-'));
    expect(ran).toEqual([]);
    expect(parts).toEqual([
      expect.objectContaining({
        type: 'tool-wipe',
        state: 'output-denied',
        approval: expect.objectContaining({ approved: false, reason: expect.stringContaining('Wiping is not allowed') }),
      }),
      expect.objectContaining({
        type: 'tool-email',
        state: 'output-denied',
        approval: expect.objectContaining({ approved: false, reason: expect.stringContaining('[policy] Add a subject line.') }),
      }),
      expect.objectContaining({
        type: 'tool-deploy',
        state: 'approval-requested',
        approval: expect.objectContaining({ requestReason: 'Deploy to production?' }),
      }),
    ]);
  });
});
