import { isStepCount, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

function setup() {
  const log: string[] = [];
  const tools = {
    search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => (log.push(`search ${q}`), `found ${q}`) }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (log.push(`delete ${path}`), 'deleted'),
    }),
  };
  const events: string[] = [];
  const interventions = createInterventions({
    handlers: [
      defineHandler({
        name: 'tool-guard',
        beforeToolCall: (event: BeforeToolCallEvent) =>
          event.toolCall.toolName === 'delete_file' ? InterventionActions.deny('Deleting is not allowed') : InterventionActions.proceed(),
      }),
    ],
    hooks: {
      onChatStart: () => void events.push('start'),
      onMessage: ({ message }) => void events.push(message.role),
      onChatDone: () => void events.push('done'),
      onChatError: () => void events.push('error'),
    },
  });
  return { log, tools, events, interventions };
}

describe('interventions.agentSettings', () => {
  it('should apply the handlers and hooks to every call of a ToolLoopAgent', async () => {
    const { log, tools, events, interventions } = setup();
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'tmp' }), toolCall('c2', 'delete_file', { path: '/tmp' })),
      step(text('I searched; deleting is not allowed.')),
      step(text('second call')),
    );
    let userEnd = 0;
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(5), onEnd: () => void userEnd++ }));
    const result = await agent.generate({ prompt: 'clean up' });
    expect(result.text).toBe('I searched; deleting is not allowed.');
    expect(log).toEqual(['search tmp']);
    expect(JSON.stringify(toolResultsSent(model, 1).c2)).toContain('Deleting is not allowed');
    expect(events).toEqual(['start', 'user', 'assistant', 'tool', 'assistant', 'done']);
    expect(userEnd).toBe(1);

    // a second call is a separate run
    await agent.generate({ prompt: 'again' });
    expect(events.slice(6)).toEqual(['start', 'user', 'assistant', 'done']);
  });

  it('should apply them to agent.stream too', async () => {
    const { log, tools, events, interventions } = setup();
    const model = scriptedModel(step(toolCall('c2', 'delete_file', { path: '/tmp' })), step(text('not allowed')));
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(5) }));
    const result = await agent.stream({ prompt: 'clean up' });
    expect(await result.text).toBe('not allowed');
    expect(log).toEqual([]);
    expect(events).toEqual(['start', 'user', 'assistant', 'tool', 'assistant', 'done']);
  });

  it("should keep the caller's prepareCall", async () => {
    const { tools, interventions } = setup();
    const model = scriptedModel(step(text('ok')));
    const agent = new ToolLoopAgent(
      interventions.agentSettings({
        model,
        tools,
        prepareCall: (options) => ({ ...options, instructions: 'Answer in French.' }),
      }),
    );
    await agent.generate({ prompt: 'hi' });
    expect(model.calls[0]?.prompt[0]).toEqual({ role: 'system', content: 'Answer in French.' });
  });

  it('should end a run whose hook throws inside a tool with onChatError and a rejection', async () => {
    const { tools } = setup();
    const errors: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: () => {
          throw new Error('Not permitted');
        },
        onChatError: ({ error }) => void errors.push(error),
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('never')));
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(5) }));
    await expect(agent.generate({ prompt: 'go' })).rejects.toThrow('Not permitted');
    expect(model.calls).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });
});
