import { dynamicTool, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, createMessageQueue, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

describe('probe', () => {
  it('instructions persist across steps', async () => {
    const search = tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` });
    const del = tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'x' });
    const interventions = createInterventions({ handlers: [{ name: 'time', beforeInvocation: (e) => InterventionActions.transform((d: any) => { d.instructions = `${d.instructions}\nCurrent time: T`; delete d.tools.del; }) }] });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'a' })), step(text('done')));
    await interventions.generateText({ model, tools: { search, del }, instructions: 'Sys.', stopWhen: isStepCount(5), prompt: 'hi' });
    console.log(JSON.stringify(model.calls.map((c) => [c.prompt[0], c.tools?.map((t) => t.name)])));
  });
  it('status only', async () => {
    const search = tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` });
    const statuses: any[] = [];
    const interventions = createInterventions({ hooks: { onStatus: ({ status }) => void statuses.push(status) } });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'a' })), step(text('done')));
    await interventions.generateText({ model, tools: { search }, stopWhen: isStepCount(5), prompt: 'hi' });
    console.log(JSON.stringify(statuses));
  });
  it('context', async () => {
    const search = tool({ inputSchema: z.object({ q: z.string() }), contextSchema: z.object({ token: z.string() }), execute: async ({ q }, { context }) => `found ${q} ${context.token}` });
    const dyn = dynamicTool({ inputSchema: z.object({ command: z.string() }), execute: async (input) => ({ stdout: (input as any).command }) });
    const seen: any[] = [];
    const interventions = createInterventions({ hooks: { preToolCall: (ctx) => void seen.push({ tc: ctx.toolContext, rc: ctx.runtimeContext, m: ctx.messages.length, call: ctx.call }), onToolCallResult: (ctx) => void seen.push({ tc: ctx.toolContext, r: ctx.result }) } });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'a' }), toolCall('c2', 'dyn', { command: 'ls' })), step(text('done')));
    await interventions.generateText({ model, tools: { search, dyn }, toolsContext: { search: { token: 'tok' } }, runtimeContext: { userId: 'u1' }, stopWhen: isStepCount(5), prompt: 'hi' });
    console.log(JSON.stringify(seen), JSON.stringify(model.calls[1]?.prompt));
  });
  it('followup', async () => {
    const events: string[] = [];
    const queue = createMessageQueue();
    const interventions = createInterventions({ hooks: { onChatStart: () => void events.push('start'), onChatDone: () => void events.push('done'), drainFollowUp: ({ steps }) => (steps.length < 3 ? 'Please continue with the next step.' : undefined) } });
    const model = scriptedModel(step(text('one')), step(text('two')), step(text('three')), step(text('four')));
    const r = await interventions.generateText({ model, prompt: 'hi', maxSteps: 10, followUp: queue });
    console.log(events, r.steps.map((s) => s.stepNumber), r.text, JSON.stringify(model.calls.map((c) => c.prompt)));
  });
});
