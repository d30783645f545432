import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel, step, text, toolCall } from '../../src/testing/index.ts';

const echo = tool({
  inputSchema: z.object({ value: z.string() }),
  execute: async ({ value }) => `echo: ${value}`,
});

describe('scriptedModel', () => {
  it('should answer the n-th call with the n-th turn and record every request', async () => {
    const model = scriptedModel(step(text('Checking.'), toolCall('c1', 'echo', { value: 'hi' })), text('Done.'));
    const result = await generateText({ model, tools: { echo }, stopWhen: isStepCount(5), prompt: 'echo hi' });

    expect(result.text).toBe('Done.');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]?.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'echo hi' }] }]);
    const tool_ = model.calls[1]?.prompt.at(-1);
    expect(tool_?.role).toBe('tool');
    expect(JSON.stringify(tool_)).toContain('echo: hi');
  });

  it('should answer streamText the same way, text one word per delta and tool arguments as tool-input parts', async () => {
    const model = scriptedModel(toolCall('c1', 'echo', { value: 'x' }), text('All done now.'));
    const result = streamText({ model, tools: { echo }, stopWhen: isStepCount(5), prompt: 'go' });
    const deltas: string[] = [];
    const kinds: string[] = [];
    for await (const part of result.fullStream) {
      kinds.push(part.type);
      if (part.type === 'text-delta') deltas.push(part.text);
    }
    expect(deltas).toEqual(['All ', 'done ', 'now.']);
    expect(kinds).toEqual(expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result']));
    expect(model.calls).toHaveLength(2);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('should stream the parts a provider sends, in order', async () => {
    const model = scriptedModel(step(text('a b'), toolCall('c1', 'echo', { value: 'x' })));
    const { stream } = await model.doStream({ prompt: [] });
    const parts: LanguageModelV4StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts.map((part) => part.type)).toEqual([
      'stream-start',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-end',
      'tool-call',
      'finish',
    ]);
    expect(parts.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls' } });
  });

  it('should accept functions of the request, and Errors as failed calls', async () => {
    const model = scriptedModel((request, call) => text(`call ${call}: ${request.prompt.length} message(s)`), new Error('provider down'));
    expect((await generateText({ model, prompt: 'hi' })).text).toBe('call 0: 1 message(s)');
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toThrow('provider down');
  });

  it('should fail a call past the script with an error that says so', async () => {
    const model = scriptedModel(text('only one'));
    await generateText({ model, prompt: 'one' });
    await expect(generateText({ model, prompt: 'two', maxRetries: 0 })).rejects.toThrow(/no turn scripted for call 2/);
  });

  describe('builders', () => {
    it('should build parts and responses', () => {
      expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
      expect(toolCall('c1', 'echo', { value: 'x' })).toEqual({
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'echo',
        input: '{"value":"x"}',
      });
      expect(toolCall('c2', 'echo', '{"value": ')).toMatchObject({ input: '{"value": ' }); // raw, malformed on purpose
      expect(step(text('a')).finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(step(toolCall('c1', 'echo', {})).finishReason.unified).toBe('tool-calls');
    });
  });
});
