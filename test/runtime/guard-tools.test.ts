import { dynamicTool, generateText, isStepCount, jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallEvent,
  createInterventions,
  defineHandler,
  guardTool,
  guardTools,
  InterventionActions,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const blockDelete = defineHandler({
  name: 'tool-guard',
  beforeToolCall: (event: BeforeToolCallEvent) =>
    event.toolCall.toolName === 'delete_file'
      ? InterventionActions.deny(`Tool '${event.toolCall.toolName}' is not allowed in this environment`)
      : InterventionActions.proceed(),
});

function fileTools(log: string[]) {
  return {
    read_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (log.push(`read ${path}`), `content of ${path}`),
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (log.push(`delete ${path}`), 'deleted'),
    }),
  };
}

describe('guardTools', () => {
  it('should block a denied tool on a plain generateText and tell the model in the same wording', async () => {
    const log: string[] = [];
    const model = scriptedModel(
      step(toolCall('c1', 'read_file', { path: '/a' }), toolCall('c2', 'delete_file', { path: '/a' })),
      step(text('ok')),
    );
    await generateText({ model, tools: guardTools(fileTools(log), [blockDelete]), stopWhen: isStepCount(3), prompt: 'x' });
    expect(log).toEqual(['read /a']);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'text', value: 'content of /a' });
    expect(sent.c2).toEqual({
      type: 'error-text',
      value: expect.stringMatching(
        /^The call to "delete_file" was blocked and was not executed\. Reason: Tool 'delete_file' is not allowed/,
      ),
    });
  });

  it('should cover dynamic tools and ignore inherited names', async () => {
    const log: string[] = [];
    const tools = {
      delete_file: dynamicTool({
        inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } } }),
        execute: async () => (log.push('dynamic delete'), 'deleted'),
      }),
    };
    const guarded = guardTools(tools, [blockDelete]);
    expect(Object.keys(guarded)).toEqual(['delete_file']);
    expect(guarded.delete_file.type).toBe('dynamic');
    const model = scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' })), step(text('ok')));
    await generateText({ model, tools: guarded, stopWhen: isStepCount(3), prompt: 'x' });
    expect(log).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('not allowed');
  });

  it('should turn confirm into an approval request, run once approved, and still deny on resume', async () => {
    const log: string[] = [];
    let locked = false;
    const guard = defineHandler({
      name: 'delete-approval',
      beforeToolCall: (event: BeforeToolCallEvent) => {
        if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
        if (locked) return InterventionActions.deny('The repository is locked');
        return InterventionActions.confirm('Approve deleting?');
      },
    });
    const tools = guardTools(fileTools(log), [guard]);
    const first = await generateText({
      model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' }))),
      tools,
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(log).toEqual([]);
    const resume = (approved: boolean): ModelMessage[] => [
      { role: 'user', content: 'x' },
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved }] },
    ];

    const approvedModel = scriptedModel(step(text('deleted it')));
    await generateText({ model: approvedModel, tools, stopWhen: isStepCount(3), messages: resume(true) });
    expect(log).toEqual(['delete /a']);

    locked = true;
    const lockedModel = scriptedModel(step(text('could not')));
    await generateText({ model: lockedModel, tools, stopWhen: isStepCount(3), messages: resume(true) });
    expect(log).toEqual(['delete /a']);
    expect(JSON.stringify(toolResultsSent(lockedModel, 0).c1)).toContain('The repository is locked');
  });

  it('should never run a confirm-gated tool when a toolApproval option bypasses needsApproval', async () => {
    const log: string[] = [];
    const guard = defineHandler({ name: 'always-ask', beforeToolCall: () => InterventionActions.confirm('Approve?') });
    const model = scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' })), step(text('ok')));
    await generateText({
      model,
      tools: guardTools(fileTools(log), [guard]),
      toolApproval: () => 'approved',
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    expect(log).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('needs a human');
  });

  it('should work with streamText', async () => {
    const log: string[] = [];
    const model = scriptedModel(step(toolCall('c2', 'delete_file', { path: '/a' })), step(text('fine')));
    const result = streamText({ model, tools: guardTools(fileTools(log), [blockDelete]), stopWhen: isStepCount(3), prompt: 'x' });
    expect(await result.text).toBe('fine');
    expect(log).toEqual([]);
  });
});

describe('guardTool', () => {
  it('should guard one tool under the name the model calls it by', async () => {
    const log: string[] = [];
    const deleteFile = guardTool(fileTools(log).delete_file, { name: 'delete_file', guards: [blockDelete] });
    const model = scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' })), step(text('ok')));
    await generateText({ model, tools: { delete_file: deleteFile }, stopWhen: isStepCount(3), prompt: 'x' });
    expect(log).toEqual([]);
  });
});

describe('interventions.wrapTools', () => {
  it('should apply tool hooks on a plain call, and not twice when passed back to the wrappers', async () => {
    const seen: string[] = [];
    const interventions = createInterventions({
      hooks: { preToolCall: ({ call }) => void seen.push(call.toolName) },
    });
    const log: string[] = [];
    const tools = interventions.wrapTools(fileTools(log));
    await generateText({
      model: scriptedModel(step(toolCall('c1', 'read_file', { path: '/a' })), step(text('ok'))),
      tools,
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    expect(seen).toEqual(['read_file']);
    await interventions.generateText({
      model: scriptedModel(step(toolCall('c1', 'read_file', { path: '/b' })), step(text('ok'))),
      tools,
      stopWhen: isStepCount(3),
      prompt: 'x',
    });
    expect(seen).toEqual(['read_file', 'read_file']);
    expect(log).toEqual(['read /a', 'read /b']);
  });
});
