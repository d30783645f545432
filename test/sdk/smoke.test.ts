import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, InterventionActions, InterventionHandler } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  private readonly blockedTools: string[];
  constructor(blockedTools: string[]) {
    super();
    this.blockedTools = blockedTools;
  }
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (this.blockedTools.includes(event.toolCall.toolName)) {
      return InterventionActions.deny(`Tool '${event.toolCall.toolName}' is not allowed in this environment`);
    }
    return InterventionActions.proceed();
  }
}

describe('smoke', () => {
  it('denies a tool call and tells the model', async () => {
    let deleted = 0;
    const tools = {
      search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` }),
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async () => {
          deleted++;
          return 'deleted';
        },
      }),
    };
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'tmp' }), toolCall('c2', 'delete_file', { path: '/tmp/x' })),
      step(text('ok')),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });
    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'clean' });
    expect(deleted).toBe(0);
    expect(result.text).toBe('ok');
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'text', value: 'found tmp' });
    expect(sent.c2).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.c2)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(result.interventions.decisions.map((d) => [d.toolName, d.action])).toEqual([
      ['search', 'proceed'],
      ['delete_file', 'deny'],
    ]);
  });

  it('works the same through streamText', async () => {
    let deleted = 0;
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async () => {
          deleted++;
          return 'deleted';
        },
      }),
    };
    const model = scriptedModel(step(toolCall('c2', 'delete_file', { path: '/tmp/x' })), step(text('ok then')));
    const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });
    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'clean' });
    expect(await result.text).toBe('ok then');
    expect(deleted).toBe(0);
    expect(JSON.stringify(toolResultsSent(model, 1).c2)).toContain('not allowed');
  });

  it('should give every event of a run the same runId, and each run its own', async () => {
    const seen: Array<[string, string | undefined]> = [];
    const interventions = createInterventions({
      handlers: [
        {
          name: 'spy',
          beforeModelCall: (event) => (seen.push(['beforeModelCall', event.runId]), InterventionActions.proceed()),
          beforeToolCall: (event) => (seen.push(['beforeToolCall', event.runId]), InterventionActions.proceed()),
          afterToolCall: (event) => (seen.push(['afterToolCall', event.runId]), InterventionActions.proceed()),
        },
      ],
      hooks: { preToolCall: ({ runId }) => void seen.push(['preToolCall', runId]) },
    });
    const tools = { search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q }) };
    for (let run = 0; run < 2; run++) {
      await interventions.generateText({
        model: scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('ok'))),
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
      });
    }
    const [first, second] = [seen.slice(0, 5), seen.slice(5)];
    expect(new Set(first.map(([, id]) => id)).size).toBe(1);
    expect(new Set(second.map(([, id]) => id)).size).toBe(1);
    expect(first[0]?.[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(first[0]?.[1]).not.toBe(second[0]?.[1]);
  });
});
