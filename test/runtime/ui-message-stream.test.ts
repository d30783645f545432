import { convertToModelMessages, isStepCount, readUIMessageStream, tool, toUIMessageStream, type UIMessage } from 'ai';
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

  it('should resume the run from an approval answered in the UI, on the next request', async () => {
    const deployed: string[] = [];
    const interventions = createInterventions({
      approvalSecret: 'secret',
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Deploy to production?') })],
    });
    const tools = {
      deploy: tool({ inputSchema: z.object({ env: z.string() }), execute: async ({ env }) => (deployed.push(env), `deployed ${env}`) }),
    };
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'ship it' }] };
    const first = interventions.streamText({
      model: scriptedModel(step(toolCall('d1', 'deploy', { env: 'prod' }))),
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user], { tools }),
    });
    let assistant: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream: first.stream }) })) assistant = update;
    if (assistant === undefined) throw new Error('no assistant message');

    // what useChat's addToolApprovalResponse({ id, approved: true }) does to the part
    const answered: UIMessage = {
      ...assistant,
      id: 'a1',
      parts: assistant.parts.map((part) =>
        'approval' in part && part.state === 'approval-requested'
          ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved: true } }
          : part,
      ) as UIMessage['parts'],
    };
    expect(deployed).toEqual([]);
    const model = scriptedModel(step(text('Deployed to prod.')));
    const second = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user, answered], { tools }),
    });
    expect(await second.text).toBe('Deployed to prod.');
    expect(deployed).toEqual(['prod']);
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('deployed prod');
  });
});
