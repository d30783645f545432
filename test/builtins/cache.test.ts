/**
 * `cache()`: an LRU of provider responses as `preRequest` / `onResponse`
 * hooks, through `interventions.generateText` / `streamText`.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cache } from '../../src/builtins/cache.ts';
import { mergeHooks } from '../../src/hooks/merge-hooks.ts';
import { createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { createFakeClock, scriptedModel, step, text, toolCall } from '../../src/testing/index.ts';

describe('cache', () => {
  describe('when the same request is sent twice', () => {
    it('should call the provider once and serve the second call from the cache', async () => {
      const responses = cache();
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(text('The Eiffel Tower is 330 m tall.'), text('(called again)'));

      const first = await interventions.generateText({ model, prompt: 'How tall is the Eiffel Tower?' });
      const second = await interventions.generateText({ model, prompt: 'How tall is the Eiffel Tower?' });

      expect(model.calls).toHaveLength(1);
      expect(second.text).toBe(first.text);
      expect(responses.stats).toEqual({ hits: 1, misses: 1, stores: 1, skipped: 0, evictions: 0, size: 1 });
    });

    it('should serve streamText from a response stored by generateText, and the reverse', async () => {
      const interventions = createInterventions({ hooks: cache() });
      const model = scriptedModel(text('Stored from generate.'), text('Stored from stream.'), text('(called again)'));

      await interventions.generateText({ model, prompt: 'one' });
      const streamed = interventions.streamText({ model, prompt: 'one' });
      const chunks: string[] = [];
      for await (const chunk of streamed.textStream) chunks.push(chunk);
      expect(chunks.join('')).toBe('Stored from generate.');

      const fresh = interventions.streamText({ model, prompt: 'two' });
      expect(await fresh.text).toBe('Stored from stream.');
      const replayed = await interventions.generateText({ model, prompt: 'two' });
      expect(replayed.text).toBe('Stored from stream.');
      expect(model.calls).toHaveLength(2);
    });

    it('should cache each step of a tool loop, and still run the tools and the handlers on a hit', async () => {
      const executed: string[] = [];
      const weather = tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          executed.push(city);
          return { city, tempC: 21 };
        },
      });
      const decisions: string[] = [];
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'audit',
            beforeToolCall: ({ toolCall: call }) => {
              decisions.push(call.toolName);
              return InterventionActions.proceed();
            },
          }),
        ],
        hooks: cache(),
      });
      const model = scriptedModel(toolCall('c1', 'weather', { city: 'Paris' }), text('21°C in Paris.'));
      const ask = () => interventions.generateText({ model, tools: { weather }, stopWhen: isStepCount(5), prompt: 'Weather in Paris?' });

      await ask();
      const again = await ask();
      expect(again.text).toBe('21°C in Paris.');
      expect(model.calls).toHaveLength(2);
      expect(executed).toEqual(['Paris', 'Paris']);
      expect(decisions).toEqual(['weather', 'weather']);
    });
  });

  describe('when requests differ', () => {
    it('should key on the prompt, tools, tool choice and settings, not on the abort signal or headers', async () => {
      const responses = cache();
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(...Array.from({ length: 6 }, (_, index) => text(`answer ${index}`)));
      const lookup = tool({ inputSchema: z.object({ q: z.string() }) });

      await interventions.generateText({ model, prompt: 'q' }); // miss
      await interventions.generateText({ model, prompt: 'q', abortSignal: new AbortController().signal, headers: { 'x-trace': '1' } }); // hit
      await interventions.generateText({ model, prompt: 'q', temperature: 0.2 }); // miss
      await interventions.generateText({ model, prompt: 'q', tools: { lookup } }); // miss
      await interventions.generateText({ model, prompt: 'q', tools: { lookup }, toolChoice: 'none' }); // miss
      await interventions.generateText({ model, prompt: 'other' }); // miss

      expect(model.calls).toHaveLength(5);
      expect(responses.stats).toMatchObject({ hits: 1, misses: 5 });
    });

    it('should use a custom key', async () => {
      const responses = cache({ key: (request) => JSON.stringify(request.prompt.filter((message) => message.role === 'user')) });
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(text('same'), text('(called again)'));
      await interventions.generateText({ model, prompt: 'hi', instructions: 'Be brief.' });
      const second = await interventions.generateText({ model, prompt: 'hi', instructions: 'Be verbose.' });
      expect(second.text).toBe('same');
      expect(model.calls).toHaveLength(1);
    });
  });

  describe('when entries age or overflow', () => {
    it('should drop the least recently used entry beyond maxEntries', async () => {
      const responses = cache({ maxEntries: 2 });
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(text('a'), text('b'), text('c'), text('b again'));
      const ask = async (prompt: string) => (await interventions.generateText({ model, prompt })).text;

      expect(await ask('a')).toBe('a');
      expect(await ask('b')).toBe('b');
      expect(await ask('a')).toBe('a'); // hit: 'a' is now the most recently used
      expect(await ask('c')).toBe('c'); // evicts 'b'
      expect(await ask('a')).toBe('a'); // still cached
      expect(model.calls).toHaveLength(3);
      expect(await ask('b')).toBe('b again'); // evicted: the provider is called again (and evicts 'a')
      expect(model.calls).toHaveLength(4);
      expect(responses.stats).toMatchObject({ hits: 2, evictions: 2, size: 2 });
    });

    it('should expire entries after ttlMs on the given clock', async () => {
      const clock = createFakeClock();
      const responses = cache({ ttlMs: 1_000, now: clock.now });
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(text('first'), text('second'));

      await interventions.generateText({ model, prompt: 'hi' });
      await clock.advance(999);
      expect((await interventions.generateText({ model, prompt: 'hi' })).text).toBe('first');
      await clock.advance(1);
      expect((await interventions.generateText({ model, prompt: 'hi' })).text).toBe('second');
      expect(model.calls).toHaveLength(2);
    });
  });

  describe('when a response must not be reused', () => {
    it('should not store a response that finished with an error', async () => {
      const responses = cache();
      const interventions = createInterventions({ hooks: responses });
      const failed = { ...step(text('partial')), finishReason: { unified: 'error' as const, raw: 'server_error' } };
      const model = scriptedModel(failed, text('recovered'));
      await interventions.generateText({ model, prompt: 'hi' });
      const second = await interventions.generateText({ model, prompt: 'hi' });
      expect(second.text).toBe('recovered');
      expect(responses.stats).toMatchObject({ skipped: 1, stores: 1, hits: 0 });
    });

    it('should keep the cached entry intact when a later hook changes the served response', async () => {
      const interventions = createInterventions({
        hooks: mergeHooks(cache(), {
          onResponse: ({ response }) => {
            const [first] = response.content;
            if (first?.type === 'text') first.text += ' (mutated)';
          },
        }),
      });
      const model = scriptedModel(text('original'));
      await interventions.generateText({ model, prompt: 'hi' });
      const second = await interventions.generateText({ model, prompt: 'hi' });
      expect(second.text).toBe('original (mutated)'); // not 'original (mutated) (mutated)'
    });

    it('should empty with clear()', async () => {
      const responses = cache();
      const interventions = createInterventions({ hooks: responses });
      const model = scriptedModel(text('one'), text('two'));
      await interventions.generateText({ model, prompt: 'hi' });
      responses.clear();
      expect((await interventions.generateText({ model, prompt: 'hi' })).text).toBe('two');
    });
  });

  describe('when given invalid options', () => {
    it('should throw a TypeError naming the option', () => {
      expect(() => cache({ maxEntries: 0 })).toThrow(/maxEntries/);
      expect(() => cache({ ttlMs: -1 })).toThrow(/ttlMs/);
    });

    it('should keep stats and clear out of the hooks passed to createInterventions', () => {
      expect(Object.keys(cache())).toEqual(['preRequest', 'onResponse']);
    });
  });
});
