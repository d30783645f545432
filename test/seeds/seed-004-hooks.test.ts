/**
 * Parity tests for seed 004 (hooks), through the public API: hooks given to
 * `createInterventions({ hooks })` or added with `addHook`, calls made through
 * `interventions.generateText` / `interventions.streamText` on a scripted
 * `MockLanguageModelV4`. Assertions are on what the provider was sent, which
 * tools executed, and what the caller got.
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import { InvalidToolInputError, isStepCount, type ModelMessage, NoOutputGeneratedError, NoSuchToolError, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  InterventionActions,
  type OnChatDoneContext,
  type OnChatStartContext,
  type ProviderResponse,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------- helpers

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A weather tool that counts (and records) its executions. */
function weatherTool() {
  const executed: unknown[] = [];
  const fetch_weather = tool({
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      executed.push({ city });
      return { city, tempC: 21, source: 'live' };
    },
  });
  return { fetch_weather, executed };
}

/** The text parts of a provider response. */
function responseText(response: ProviderResponse): string {
  return response.content
    .filter((part): part is Extract<LanguageModelV4Content, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** The system message of a provider prompt. */
function systemOf(prompt: LanguageModelV4Prompt): string | undefined {
  const system = prompt.find((message) => message.role === 'system');
  return system?.role === 'system' ? system.content : undefined;
}

/** Appends a line to the system message of a provider request (the seed's "Be concise." hook). */
function withSystemSuffix(request: LanguageModelV4CallOptions, suffix: string): LanguageModelV4CallOptions {
  return {
    ...request,
    prompt: request.prompt.map((message) => (message.role === 'system' ? { ...message, content: message.content + suffix } : message)),
  };
}

/** A stable key of a request: its prompt (the seed's `hash(ctx.request)`). */
function hash(request: LanguageModelV4CallOptions): string {
  return JSON.stringify(request.prompt);
}

/** The text of a tool result output as the model read it. */
function outputText(output: unknown): string {
  return JSON.stringify(output);
}

/** The text of a user message, whether its content is a string or text parts. */
function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Hooks recording the chat lifecycle observers. */
function lifecycleRecorder() {
  const events: string[] = [];
  const started: OnChatStartContext[] = [];
  const done: OnChatDoneContext[] = [];
  const errors: unknown[] = [];
  const aborts: unknown[] = [];
  return {
    events,
    started,
    done,
    errors,
    aborts,
    hooks: {
      onChatStart: (ctx: OnChatStartContext) => {
        events.push('start');
        started.push(ctx);
      },
      onChatDone: (ctx: OnChatDoneContext) => {
        events.push('done');
        done.push(ctx);
      },
      onChatError: (ctx: { error: unknown }) => {
        events.push('error');
        errors.push(ctx.error);
      },
      onChatAbort: (ctx: { reason: unknown }) => {
        events.push('abort');
        aborts.push(ctx.reason);
      },
    },
  };
}

// ---------------------------------------------------------------- addHook

describe('seed 004: addHook and its disposer', () => {
  it('should fire a hook added with addHook and stop firing it once disposed', async () => {
    const seen: string[] = [];
    const interventions = createInterventions();
    const dispose = interventions.addHook('onMessage', (ctx) => {
      if (ctx.message.role === 'assistant') seen.push(JSON.stringify(ctx.message.content));
    });

    const model = scriptedModel(step(text('first answer')), step(text('second answer')));
    await interventions.generateText({ model, prompt: 'one' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('first answer');

    dispose();
    const result = await interventions.generateText({ model, prompt: 'two' });
    expect(result.text).toBe('second answer');
    expect(seen).toHaveLength(1);
  });

  it('should return an idempotent disposer: calling it twice is fine and removes only its own hook', async () => {
    const calls: string[] = [];
    const interventions = createInterventions();
    const hook = () => {
      calls.push('shared');
    };
    // the same function registered twice: two registrations, two disposers
    const disposeFirst = interventions.addHook('onChatStart', hook);
    interventions.addHook('onChatStart', hook);
    interventions.addHook('onChatStart', () => {
      calls.push('other');
    });

    expect(() => {
      disposeFirst();
      disposeFirst();
    }).not.toThrow();

    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({ model, prompt: 'hi' });
    // the second registration of `hook` and the other hook still fire, once each
    expect(calls).toEqual(['shared', 'other']);
  });

  it('should accept hooks in createInterventions({ hooks }) as one function or a list, before hooks added later', async () => {
    const order: string[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatStart: [() => void order.push('config-1'), () => void order.push('config-2')],
        onChatDone: () => void order.push('config-done'),
      },
    });
    interventions.addHook('onChatStart', () => void order.push('added-1'));
    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({ model, prompt: 'hi' });
    expect(order).toEqual(['config-1', 'config-2', 'added-1', 'config-done']);
  });

  it('should dispose an added hook without touching the hooks given in the config', async () => {
    const order: string[] = [];
    const interventions = createInterventions({ hooks: { preRequest: () => void order.push('config') } });
    const dispose = interventions.addHook('preRequest', () => void order.push('added'));
    const model = scriptedModel(step(text('a')), step(text('b')));
    await interventions.generateText({ model, prompt: 'hi' });
    dispose();
    dispose();
    await interventions.generateText({ model, prompt: 'hi' });
    expect(order).toEqual(['config', 'added', 'config']);
  });
});

// ---------------------------------------------------------------- firing order

describe('seed 004: firing order', () => {
  it('should run observers in registration order, awaiting each async one before the next starts', async () => {
    const log: string[] = [];
    const interventions = createInterventions();
    // the first hook is the slowest: if hooks ran concurrently it would end last
    interventions.addHook('onChatStart', async () => {
      log.push('start A');
      await delay(30);
      log.push('end A');
    });
    interventions.addHook('onChatStart', async () => {
      log.push('start B');
      await delay(10);
      log.push('end B');
    });
    interventions.addHook('onChatStart', () => {
      log.push('sync C');
    });
    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({ model, prompt: 'hi' });
    expect(log).toEqual(['start A', 'end A', 'start B', 'end B', 'sync C']);
  });

  it('should run interceptors one at a time in registration order, each awaited (preToolCall, onToolCallResult)', async () => {
    const log: string[] = [];
    const { fetch_weather, executed } = weatherTool();
    const interventions = createInterventions();
    interventions.addHook('preToolCall', async () => {
      log.push('pre A start');
      await delay(25);
      log.push('pre A end');
    });
    interventions.addHook('preToolCall', async () => {
      log.push('pre B start');
      await delay(5);
      log.push('pre B end');
    });
    interventions.addHook('onToolCallResult', async () => {
      log.push('result A start');
      await delay(20);
      log.push('result A end');
    });
    interventions.addHook('onToolCallResult', () => {
      log.push('result B');
    });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(log).toEqual(['pre A start', 'pre A end', 'pre B start', 'pre B end', 'result A start', 'result A end', 'result B']);
  });

  it('should await async preRequest / onResponse hooks in order before the provider call and before the result', async () => {
    const log: string[] = [];
    const model = scriptedModel(step(text('answer')));
    const interventions = createInterventions({
      hooks: {
        preRequest: [
          async () => {
            await delay(20);
            log.push(`preRequest A (provider calls: ${model.calls.length})`);
          },
          () => void log.push(`preRequest B (provider calls: ${model.calls.length})`),
        ],
        onResponse: [
          async () => {
            await delay(20);
            log.push(`onResponse A (provider calls: ${model.calls.length})`);
          },
          () => void log.push('onResponse B'),
        ],
      },
    });
    await interventions.generateText({ model, prompt: 'hi' });
    expect(log).toEqual([
      'preRequest A (provider calls: 0)',
      'preRequest B (provider calls: 0)',
      'onResponse A (provider calls: 1)',
      'onResponse B',
    ]);
  });
});

// ---------------------------------------------------------------- onMessage

describe('seed 004: onMessage', () => {
  it('should fire the logger example for the user message, each assistant message and each tool message, in order', async () => {
    const { fetch_weather } = weatherTool();
    const model = scriptedModel(
      step(text('Let me check.'), toolCall('c1', 'fetch_weather', { city: 'Paris' })),
      step(text('It is 21°C in Paris.')),
    );
    const committed: ModelMessage[] = [];
    const assistantSaid: unknown[] = [];
    const interventions = createInterventions();
    interventions.addHook('onMessage', (ctx) => {
      committed.push(ctx.message);
    });
    // the seed's logger example
    interventions.addHook('onMessage', (ctx) => {
      if (ctx.message.role === 'assistant') assistantSaid.push(ctx.message.content);
    });

    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'What is the weather in Paris?',
    });

    expect(result.text).toBe('It is 21°C in Paris.');
    expect(committed.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(committed[0]?.content)).toContain('What is the weather in Paris?');
    expect(JSON.stringify(committed[1]?.content)).toContain('Let me check.');
    expect(JSON.stringify(committed[1]?.content)).toContain('"toolCallId":"c1"');
    const toolMessage = committed[2];
    expect(toolMessage?.role).toBe('tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('"toolCallId":"c1"');
    expect(JSON.stringify(toolMessage?.content)).toContain('"tempC":21');
    expect(JSON.stringify(committed[3]?.content)).toContain('It is 21°C in Paris.');
    expect(assistantSaid).toHaveLength(2);
    // the history the hooks saw is the history the run produced
    expect(committed.slice(1)).toEqual(result.responseMessages);
  });

  it('should fire one onMessage per tool message when a step has several tool calls', async () => {
    const { fetch_weather, executed } = weatherTool();
    const model = scriptedModel(
      step(toolCall('c1', 'fetch_weather', { city: 'Paris' }), toolCall('c2', 'fetch_weather', { city: 'Rome' })),
      step(toolCall('c3', 'fetch_weather', { city: 'Oslo' })),
      step(text('done')),
    );
    const roles: string[] = [];
    const toolCallIds: string[] = [];
    const interventions = createInterventions({
      hooks: {
        onMessage: ({ message }) => {
          roles.push(message.role);
          if (message.role === 'tool') {
            for (const part of message.content) if (part.type === 'tool-result') toolCallIds.push(part.toolCallId);
          }
        },
      },
    });
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather x3',
    });
    expect(executed).toHaveLength(3);
    expect(roles[0]).toBe('user');
    expect(roles.filter((role) => role === 'assistant')).toHaveLength(3);
    expect(toolCallIds).toEqual(['c1', 'c2', 'c3']);
    expect(roles.length).toBe(1 + result.responseMessages.length);
  });

  it('should commit the user message after onChatStart, the assistant message after onResponse and the tool message after onToolCallResult', async () => {
    const { fetch_weather } = weatherTool();
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    const log: string[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatStart: () => void log.push('onChatStart'),
        onResponse: () => void log.push('onResponse'),
        onToolCallResult: () => void log.push('onToolCallResult'),
        onMessage: ({ message }) => void log.push(`onMessage:${message.role}`),
        onChatDone: () => void log.push('onChatDone'),
      },
    });
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'hi' });

    const at = (entry: string, from = 0) => log.indexOf(entry, from);
    expect(at('onChatStart')).toBe(0);
    expect(at('onMessage:user')).toBeGreaterThan(at('onChatStart'));
    const firstAssistant = at('onMessage:assistant');
    expect(firstAssistant).toBeGreaterThan(at('onResponse'));
    expect(at('onMessage:tool')).toBeGreaterThan(at('onToolCallResult'));
    const secondResponse = at('onResponse', at('onResponse') + 1);
    const lastAssistant = log.lastIndexOf('onMessage:assistant');
    expect(lastAssistant).toBeGreaterThan(secondResponse);
    // the final assistant message is in history before onChatDone
    expect(at('onChatDone')).toBe(log.length - 1);
    expect(lastAssistant).toBeLessThan(at('onChatDone'));
    expect(log.filter((entry) => entry.startsWith('onMessage'))).toEqual([
      'onMessage:user',
      'onMessage:assistant',
      'onMessage:tool',
      'onMessage:assistant',
    ]);
  });

  it("should commit a step's messages when the step ends: the assistant message, then its tool message", async () => {
    // adaptation: the AI SDK commits a step's messages (assistant + tool) together when the step
    // ends, so onMessage fires then, assistant first; the assistant message is the complete one,
    // approval-request parts included (what a persisted history needs to resume)
    const log: string[] = [];
    const committed: ModelMessage[] = [];
    const lookup = tool({
      inputSchema: z.object({}),
      execute: async () => {
        log.push('execute');
        return 'r';
      },
    });
    const interventions = createInterventions({
      hooks: {
        onResponse: () => void log.push('onResponse'),
        preToolCall: () => void log.push('preToolCall'),
        onToolCallResult: () => void log.push('onToolCallResult'),
        onMessage: ({ message }) => {
          log.push(`onMessage:${message.role}`);
          committed.push(message);
        },
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'lookup', {})), step(text('done')));
    await interventions.generateText({ model, tools: { lookup }, stopWhen: isStepCount(5), prompt: 'go' });
    expect(log).toEqual([
      'onMessage:user',
      'onResponse',
      'preToolCall',
      'execute',
      'onToolCallResult',
      'onMessage:assistant',
      'onMessage:tool',
      'onResponse',
      'onMessage:assistant',
    ]);
    expect(committed[1]).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1' }] });
  });

  it('should commit the approval request with the assistant message of a confirmed call', async () => {
    const committed: ModelMessage[] = [];
    const lookup = tool({ inputSchema: z.object({}), execute: async () => 'r' });
    const interventions = createInterventions({
      handlers: [{ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Allow lookup?') }],
      hooks: { onMessage: ({ message }) => void committed.push(message) },
    });
    const model = scriptedModel(step(toolCall('c1', 'lookup', {})));
    const result = await interventions.generateText({ model, tools: { lookup }, stopWhen: isStepCount(5), prompt: 'go' });
    expect(committed.slice(1)).toEqual(result.responseMessages);
    expect(JSON.stringify(committed[1])).toContain('"tool-approval-request"');
  });

  it('should ignore what an observer returns', async () => {
    const model = scriptedModel(step(text('untouched')));
    const interventions = createInterventions();
    // observers return void by type; a value returned anyway must not change anything
    interventions.addHook('onMessage', (() => ({ message: { role: 'assistant', content: 'HIJACKED' } })) as () => void);
    interventions.addHook('onChatStart', (() => ({ messages: [] })) as () => void);
    const result = await interventions.generateText({ model, prompt: 'hi' });
    expect(result.text).toBe('untouched');
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('hi');
  });
});

// ---------------------------------------------------------------- onResponse

describe('seed 004: onResponse composition', () => {
  it('should compose the trim → uppercase example: the second hook sees the trimmed content', async () => {
    const model = scriptedModel(step(text('   hello world   ')));
    const seenBySecond: string[] = [];
    const interventions = createInterventions();
    // trim whitespace
    interventions.addHook('onResponse', (ctx) => ({
      response: {
        ...ctx.response,
        content: ctx.response.content.map((part) => (part.type === 'text' ? { ...part, text: part.text.trim() } : part)),
      },
    }));
    // runs after the trim hook, sees the trimmed content
    interventions.addHook('onResponse', (ctx) => {
      seenBySecond.push(responseText(ctx.response));
      return {
        response: {
          ...ctx.response,
          content: ctx.response.content.map((part) => (part.type === 'text' ? { ...part, text: part.text.toUpperCase() } : part)),
        },
      };
    });

    const result = await interventions.generateText({ model, prompt: 'greet me' });
    expect(seenBySecond).toEqual(['hello world']);
    expect(result.text).toBe('HELLO WORLD');
    expect(model.calls).toHaveLength(1);
  });

  it('should leave the response unchanged when an interceptor returns nothing, and always drain every hook', async () => {
    const model = scriptedModel(step(text('original')));
    const ran: string[] = [];
    const interventions = createInterventions({
      hooks: {
        onResponse: [
          (ctx) => {
            ran.push(`observe:${responseText(ctx.response)}`);
          },
          (ctx) => {
            ran.push('replace');
            return { response: { ...ctx.response, content: [text('replaced')] } };
          },
          (ctx) => {
            ran.push(`after:${responseText(ctx.response)}`);
          },
        ],
      },
    });
    const result = await interventions.generateText({ model, prompt: 'hi' });
    expect(ran).toEqual(['observe:original', 'replace', 'after:replaced']);
    expect(result.text).toBe('replaced');
  });

  it('should let onResponse rewrite tool calls and finishReason', async () => {
    const { fetch_weather, executed } = weatherTool();
    // the provider asks for a tool; onResponse replaces it with a final answer
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })));
    const interventions = createInterventions({
      hooks: {
        onResponse: (ctx) => ({
          response: { ...ctx.response, content: [text('no tools today')], finishReason: { unified: 'stop', raw: 'stop' } },
        }),
      },
    });
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });
    expect(executed).toEqual([]);
    expect(result.text).toBe('no tools today');
    expect(result.finishReason).toBe('stop');
    expect(model.calls).toHaveLength(1);
  });

  it('should see the request that was sent (after preRequest changes)', async () => {
    const model = scriptedModel(step(text('ok')));
    const seenSystems: Array<string | undefined> = [];
    const interventions = createInterventions({
      hooks: {
        preRequest: (ctx) => ({ request: withSystemSuffix(ctx.request, '\nBe concise.') }),
        onResponse: (ctx) => {
          seenSystems.push(systemOf(ctx.request.prompt));
        },
      },
    });
    await interventions.generateText({ model, instructions: 'You are helpful.', prompt: 'hi' });
    expect(seenSystems).toEqual(['You are helpful.\nBe concise.']);
  });
});

// ---------------------------------------------------------------- preRequest

describe('seed 004: preRequest', () => {
  it('should short-circuit on a cache hit: the provider is not called and the second hook does not run', async () => {
    const cache = new Map<string, ProviderResponse>();
    let hookBRuns = 0;
    const interventions = createInterventions();
    let missKey: string | undefined;
    // Hook A: cache check, short-circuits on hit
    interventions.addHook('preRequest', (ctx) => {
      const cached = cache.get(hash(ctx.request));
      if (cached) return { response: cached };
      missKey = hash(ctx.request);
    });
    // Hook B: only runs when A returns void
    interventions.addHook('preRequest', (ctx) => {
      hookBRuns++;
      return { request: withSystemSuffix(ctx.request, '\nBe concise.') };
    });
    // fill the cache from real responses (keyed by the request that A saw)
    interventions.addHook('onResponse', (ctx) => {
      if (missKey !== undefined) cache.set(missKey, ctx.response);
      missKey = undefined;
    });

    const model = scriptedModel(step(text('from the provider')), step(text('second provider answer')));
    // a miss: both hooks run, the provider answers
    const first = await interventions.generateText({ model, instructions: 'Sys.', prompt: 'What is 2+2?' });
    expect(first.text).toBe('from the provider');
    expect(model.calls).toHaveLength(1);
    expect(hookBRuns).toBe(1);
    expect(systemOf(model.calls[0]!.prompt)).toBe('Sys.\nBe concise.');

    // a hit: A short-circuits, B does not run, the provider is not called
    const second = await interventions.generateText({ model, instructions: 'Sys.', prompt: 'What is 2+2?' });
    expect(second.text).toBe('from the provider');
    expect(model.calls).toHaveLength(1);
    expect(hookBRuns).toBe(1);

    // a different request misses again
    const third = await interventions.generateText({ model, instructions: 'Sys.', prompt: 'What is 3+3?' });
    expect(third.text).toBe('second provider answer');
    expect(model.calls).toHaveLength(2);
    expect(hookBRuns).toBe(2);
  });

  it('should serve a cached response without calling the provider or the hooks after the short-circuit', async () => {
    const cached = step(text('cached answer'));
    let hookBRuns = 0;
    const interventions = createInterventions({
      hooks: {
        preRequest: [
          (ctx) => (JSON.stringify(ctx.request.prompt).includes('cached question') ? { response: cached } : undefined),
          () => {
            hookBRuns++;
          },
        ],
      },
    });
    const model = scriptedModel(step(text('provider answer')));

    const hit = await interventions.generateText({ model, prompt: 'the cached question' });
    expect(hit.text).toBe('cached answer');
    expect(model.calls).toHaveLength(0);
    expect(hookBRuns).toBe(0);

    const miss = await interventions.generateText({ model, prompt: 'a new question' });
    expect(miss.text).toBe('provider answer');
    expect(model.calls).toHaveLength(1);
    expect(hookBRuns).toBe(1);
  });

  it('should round-trip the seed cache example: onResponse stores, preRequest serves the second identical call', async () => {
    const cache = new Map<string, ProviderResponse>();
    const interventions = createInterventions({
      hooks: {
        preRequest: (ctx) => {
          const cached = cache.get(hash(ctx.request));
          if (cached) return { response: cached };
        },
        onResponse: (ctx) => {
          cache.set(hash(ctx.request), ctx.response);
        },
      },
    });
    const model = scriptedModel(step(text('forty-two')), step(text('should not be used')));
    const first = await interventions.generateText({ model, prompt: 'meaning of life?' });
    const second = await interventions.generateText({ model, prompt: 'meaning of life?' });
    expect(first.text).toBe('forty-two');
    expect(second.text).toBe('forty-two');
    expect(model.calls).toHaveLength(1);
  });

  it('should run onResponse on a response supplied by a preRequest short-circuit', async () => {
    const seen: string[] = [];
    const interventions = createInterventions({
      hooks: {
        preRequest: () => ({ response: step(text('synthetic')) }),
        onResponse: (ctx) => {
          seen.push(responseText(ctx.response));
          return { response: { ...ctx.response, content: [text('synthetic, reviewed')] } };
        },
      },
    });
    const model = scriptedModel();
    const result = await interventions.generateText({ model, prompt: 'hi' });
    expect(seen).toEqual(['synthetic']);
    expect(result.text).toBe('synthetic, reviewed');
    expect(model.calls).toHaveLength(0);
  });

  it('should short-circuit a tool-calling step with a cached response and still run the tool loop', async () => {
    const { fetch_weather, executed } = weatherTool();
    const model = scriptedModel(step(text('Paris is mild.')));
    const interventions = createInterventions({
      hooks: {
        // step 0 is served from a cache: a response that calls the tool
        preRequest: (ctx) => (ctx.stepNumber === 0 ? { response: step(toolCall('c1', 'fetch_weather', { city: 'Paris' })) } : undefined),
      },
    });
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(model.calls).toHaveLength(1);
    expect(toolResultsSent(model, 0).c1).toEqual({ type: 'json', value: { city: 'Paris', tempC: 21, source: 'live' } });
    expect(result.text).toBe('Paris is mild.');
  });

  it('should send the provider the request returned in { request } (system prompt modified)', async () => {
    const model = scriptedModel(step(text('ok')));
    const seenByB: Array<string | undefined> = [];
    const interventions = createInterventions();
    interventions.addHook('preRequest', (ctx) => ({ request: withSystemSuffix(ctx.request, '\nBe concise.') }));
    // a later { request } hook sees the previous hook's request (waterfall)
    interventions.addHook('preRequest', (ctx) => {
      seenByB.push(systemOf(ctx.request.prompt));
      return { request: withSystemSuffix(ctx.request, '\nAnswer in French.') };
    });
    await interventions.generateText({ model, instructions: 'You are helpful.', prompt: 'hi' });
    expect(seenByB).toEqual(['You are helpful.\nBe concise.']);
    expect(systemOf(model.calls[0]!.prompt)).toBe('You are helpful.\nBe concise.\nAnswer in French.');
  });

  it('should leave the request unchanged when preRequest returns nothing', async () => {
    const plain = scriptedModel(step(text('ok')));
    const hooked = scriptedModel(step(text('ok')));
    let runs = 0;
    await createInterventions().generateText({ model: plain, instructions: 'Sys.', prompt: 'hi' });
    await createInterventions({ hooks: { preRequest: () => void runs++ } }).generateText({
      model: hooked,
      instructions: 'Sys.',
      prompt: 'hi',
    });
    expect(runs).toBe(1);
    expect(hooked.calls[0]!.prompt).toEqual(plain.calls[0]!.prompt);
  });

  it('should fire before each provider call with a 0-indexed step number', async () => {
    const { fetch_weather } = weatherTool();
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    const steps: Array<number | undefined> = [];
    const promptLengths: number[] = [];
    const interventions = createInterventions({
      hooks: {
        preRequest: (ctx) => {
          steps.push(ctx.stepNumber);
          promptLengths.push(ctx.request.prompt.length);
        },
      },
    });
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });
    expect(steps).toEqual([0, 1]);
    expect(model.calls).toHaveLength(2);
    expect(promptLengths).toEqual(model.calls.map((call) => call.prompt.length));
  });

  it('should short-circuit streamText with a cached response: the provider stream is never opened', async () => {
    const model = scriptedModel(step(text('streamed from the provider')));
    let hookBRuns = 0;
    const interventions = createInterventions({
      hooks: {
        preRequest: [
          () => ({ response: step(text('cached streamed answer')) }),
          () => {
            hookBRuns++;
          },
        ],
      },
    });
    const result = interventions.streamText({ model, prompt: 'hi' });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks.join('')).toBe('cached streamed answer');
    expect(await result.text).toBe('cached streamed answer');
    expect(model.calls).toHaveLength(0);
    expect(hookBRuns).toBe(0);
  });

  it('should short-circuit streamText with a cached response when onResponse hooks also run', async () => {
    const model = scriptedModel(step(text('streamed from the provider')));
    const seen: string[] = [];
    const interventions = createInterventions({
      hooks: {
        preRequest: () => ({ response: step(text('cached answer')) }),
        onResponse: (ctx) => {
          seen.push(responseText(ctx.response));
        },
      },
    });
    const result = interventions.streamText({ model, prompt: 'hi' });
    expect(await result.text).toBe('cached answer');
    expect(model.calls).toHaveLength(0);
    expect(seen).toEqual(['cached answer']);
  });

  it('should send a streamText provider the modified request on a miss', async () => {
    const model = scriptedModel(step(text('streamed')));
    const interventions = createInterventions({
      hooks: { preRequest: (ctx) => ({ request: withSystemSuffix(ctx.request, '\nBe concise.') }) },
    });
    const result = interventions.streamText({ model, instructions: 'Sys.', prompt: 'hi' });
    expect(await result.text).toBe('streamed');
    expect(model.calls).toHaveLength(1);
    expect(systemOf(model.calls[0]!.prompt)).toBe('Sys.\nBe concise.');
  });
});

// ---------------------------------------------------------------- preToolCall

describe('seed 004: preToolCall', () => {
  it('should serve the cached weather example: execute is not called, the model gets the cached result', async () => {
    const weatherCache = new Map<string, unknown>([['Paris', { city: 'Paris', tempC: 18, source: 'cache' }]]);
    const { fetch_weather, executed } = weatherTool();
    const laterHook: string[] = [];
    const resultsSeen: unknown[] = [];
    const interventions = createInterventions();
    interventions.addHook('preToolCall', (ctx) => {
      if (ctx.call.toolName === 'fetch_weather') {
        const cached = weatherCache.get((ctx.call.input as { city: string }).city);
        if (cached) return { result: cached };
      }
    });
    interventions.addHook('preToolCall', (ctx) => {
      laterHook.push((ctx.call.input as { city: string }).city);
    });
    interventions.addHook('onToolCallResult', (ctx) => {
      resultsSeen.push(ctx.result);
      return { result: { ...(ctx.result as object), seenBy: 'onToolCallResult' } };
    });

    const model = scriptedModel(
      step(toolCall('c1', 'fetch_weather', { city: 'Paris' }), toolCall('c2', 'fetch_weather', { city: 'Berlin' })),
      step(text('done')),
    );
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather in Paris and Berlin?',
    });

    expect(result.text).toBe('done');
    // Paris came from the cache; Berlin was a miss and ran
    expect(executed).toEqual([{ city: 'Berlin' }]);
    // the short-circuit skipped the rest of the chain for Paris only
    expect(laterHook).toEqual(['Berlin']);
    // onToolCallResult ran on the cached result too
    expect(resultsSeen).toEqual([
      { city: 'Paris', tempC: 18, source: 'cache' },
      { city: 'Berlin', tempC: 21, source: 'live' },
    ]);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'json', value: { city: 'Paris', tempC: 18, source: 'cache', seenBy: 'onToolCallResult' } });
    expect(sent.c2).toEqual({ type: 'json', value: { city: 'Berlin', tempC: 21, source: 'live', seenBy: 'onToolCallResult' } });
  });

  it('should short-circuit with { error }: execute is not called, onToolCallError fires, the loop continues with the error text', async () => {
    const { fetch_weather, executed } = weatherTool();
    const notPermitted = new Error('Not permitted');
    const errorsSeen: unknown[] = [];
    const laterHook: string[] = [];
    const life = lifecycleRecorder();
    const interventions = createInterventions({ hooks: life.hooks });
    interventions.addHook('preToolCall', (ctx) => {
      if (ctx.call.toolName === 'fetch_weather') return { error: notPermitted };
    });
    interventions.addHook('preToolCall', (ctx) => void laterHook.push(ctx.call.toolCallId));
    interventions.addHook('onToolCallError', (ctx) => {
      errorsSeen.push(ctx.error);
    });

    const model = scriptedModel(
      step(toolCall('c1', 'fetch_weather', { city: 'Paris' })),
      step(text('Sorry, I am not allowed to check the weather.')),
    );
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });

    expect(executed).toEqual([]);
    expect(laterHook).toEqual([]);
    expect(errorsSeen).toEqual([notPermitted]);
    // the loop continued: the model was called again and read the error
    expect(model.calls).toHaveLength(2);
    expect(outputText(toolResultsSent(model, 1).c1)).toContain('Not permitted');
    expect(result.text).toBe('Sorry, I am not allowed to check the weather.');
    expect(life.events).toEqual(['start', 'done']);
  });

  it('should end the call when preToolCall throws: same error to the caller, onChatError once, no further model call', async () => {
    const { fetch_weather, executed } = weatherTool();
    const notPermitted = new Error('Not permitted');
    const life = lifecycleRecorder();
    const toolErrors: unknown[] = [];
    const interventions = createInterventions({ hooks: life.hooks });
    interventions.addHook('preToolCall', (ctx) => {
      if (ctx.call.toolName === 'fetch_weather') throw notPermitted;
    });
    interventions.addHook('onToolCallError', (ctx) => void toolErrors.push(ctx.error));

    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('never')));
    const error = await rejectionOf(
      interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' }),
    );

    expect(error).toBe(notPermitted);
    expect(executed).toEqual([]);
    // the LLM never sees what went wrong
    expect(model.calls).toHaveLength(1);
    // a hook throw is not a tool error
    expect(toolErrors).toEqual([]);
    expect(life.errors).toEqual([notPermitted]);
    expect(life.events).toEqual(['start', 'error']);
  });

  it('should run the tool with the input returned in { call }, and later hooks see it', async () => {
    const { fetch_weather, executed } = weatherTool();
    const seenByLater: unknown[] = [];
    const seenByResult: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: [
          (ctx) => ({ call: { ...ctx.call, input: { city: `${(ctx.call.input as { city: string }).city}, FR` } } }),
          (ctx) => void seenByLater.push(ctx.call.input),
        ],
        onToolCallResult: (ctx) => void seenByResult.push(ctx.call.input),
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });

    expect(executed).toEqual([{ city: 'Paris, FR' }]);
    expect(seenByLater).toEqual([{ city: 'Paris, FR' }]);
    expect(seenByResult).toEqual([{ city: 'Paris, FR' }]);
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'json', value: { city: 'Paris, FR', tempC: 21, source: 'live' } });
  });

  it('should pass the call as { toolCallId, toolName, input } and the tool definition', async () => {
    const { fetch_weather } = weatherTool();
    const seen: Array<{ call: unknown; tool: unknown }> = [];
    const interventions = createInterventions({
      hooks: { preToolCall: (ctx) => void seen.push({ call: ctx.call, tool: ctx.tool }) },
    });
    const model = scriptedModel(step(toolCall('c9', 'fetch_weather', { city: 'Lima' })), step(text('done')));
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.call).toEqual({ toolCallId: 'c9', toolName: 'fetch_weather', input: { city: 'Lima' } });
    expect((seen[0]!.tool as { description?: string }).description).toBe('Current weather for a city');
  });

  it('should skip preToolCall for an unknown tool and route it to onToolCallError (tool undefined)', async () => {
    const { fetch_weather, executed } = weatherTool();
    const preToolCalls: string[] = [];
    const toolErrors: Array<{ toolName: string; tool: unknown; isNoSuchTool: boolean }> = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: (ctx) => void preToolCalls.push(ctx.call.toolName),
        onToolCallError: (ctx) => {
          toolErrors.push({ toolName: ctx.call.toolName, tool: ctx.tool, isNoSuchTool: NoSuchToolError.isInstance(ctx.error) });
          return { error: new Error(`Unknown tool ${ctx.call.toolName}; use fetch_weather`) };
        },
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'get_forecast', { city: 'Paris' })), step(text('done')));
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });
    expect(result.text).toBe('done');
    expect(executed).toEqual([]);
    expect(preToolCalls).toEqual([]);
    expect(toolErrors).toEqual([{ toolName: 'get_forecast', tool: undefined, isNoSuchTool: true }]);
    expect(outputText(toolResultsSent(model, 1).c1)).toContain('Unknown tool get_forecast; use fetch_weather');
  });
});

// ---------------------------------------------------------------- onToolCallResult

describe('seed 004: onToolCallResult', () => {
  const users = [
    { name: 'Ada', email: 'ada@example.com' },
    { name: 'Linus', email: 'linus@example.org' },
  ];
  const redactEmails = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/[\w.+-]+@[\w-]+\.[\w.]+/g, '[redacted]')) as unknown;

  it('should redact the result of list_users before the model sees it (redactEmails example)', async () => {
    let listed = 0;
    const list_users = tool({
      inputSchema: z.object({}),
      execute: async () => {
        listed++;
        return users;
      },
    });
    const echo = tool({ inputSchema: z.object({ value: z.string() }), execute: async ({ value }) => value });
    const interventions = createInterventions();
    interventions.addHook('onToolCallResult', (ctx) => {
      if (ctx.call.toolName === 'list_users') {
        return { result: redactEmails(ctx.result) };
      }
    });
    const model = scriptedModel(
      step(toolCall('c1', 'list_users', {}), toolCall('c2', 'echo', { value: 'contact: bob@example.net' })),
      step(text('done')),
    );
    await interventions.generateText({ model, tools: { list_users, echo }, stopWhen: isStepCount(5), prompt: 'users?' });

    expect(listed).toBe(1);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({
      type: 'json',
      value: [
        { name: 'Ada', email: '[redacted]' },
        { name: 'Linus', email: '[redacted]' },
      ],
    });
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain('ada@example.com');
    // other tools are untouched
    expect(sent.c2).toEqual({ type: 'text', value: 'contact: bob@example.net' });
  });

  it('should always drain: every hook runs and sees the previous result', async () => {
    const list_users = tool({ inputSchema: z.object({}), execute: async () => users });
    const seen: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onToolCallResult: [
          (ctx) => ({ result: redactEmails(ctx.result) }),
          (ctx) => {
            seen.push(ctx.result);
          },
          (ctx) => ({ result: { count: (ctx.result as unknown[]).length, users: ctx.result } }),
        ],
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'list_users', {})), step(text('done')));
    await interventions.generateText({ model, tools: { list_users }, stopWhen: isStepCount(5), prompt: 'users?' });
    expect(seen).toEqual([redactEmails(users)]);
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'json', value: { count: 2, users: redactEmails(users) } });
  });
});

// ---------------------------------------------------------------- onToolCallError

describe('seed 004: onToolCallError', () => {
  it('should wrap a validation error: the model is sent "Bad arguments for <tool>"', async () => {
    const { fetch_weather, executed } = weatherTool();
    const seen: Array<{ isValidation: boolean; input: unknown; tool: unknown }> = [];
    const interventions = createInterventions();
    interventions.addHook('onToolCallError', (ctx) => {
      seen.push({ isValidation: InvalidToolInputError.isInstance(ctx.error), input: ctx.call.input, tool: ctx.tool });
      if (InvalidToolInputError.isInstance(ctx.error)) {
        return { error: new Error(`Bad arguments for ${ctx.call.toolName}`) };
      }
    });
    // city must be a string: the model sends a number
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 42 })), step(text('let me fix that')));
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });

    expect(executed).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.isValidation).toBe(true);
    expect(seen[0]!.input).toEqual({ city: 42 });
    expect(seen[0]!.tool).toBe(fetch_weather);
    expect(model.calls).toHaveLength(2);
    const sent = toolResultsSent(model, 1).c1 as { type: string; value: string };
    // the SDK renders an error as `String(error)` ("Error: …"), as for any tool error
    expect(sent.type).toBe('error-text');
    expect(sent.value).toMatch(/^(Error: )?Bad arguments for fetch_weather$/);
    expect(result.text).toBe('let me fix that');
  });

  it('should rewrite the error text the model sees when execute throws', async () => {
    let attempts = 0;
    const fetch_weather = tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        attempts++;
        throw new Error('ECONNRESET 10.0.0.7:443 (internal)');
      },
    });
    const original: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onToolCallError: (ctx) => {
          original.push(ctx.error);
          return { error: new Error('The weather service is unavailable; try again later.') };
        },
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('Service is down.')));
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather?',
    });

    expect(attempts).toBe(1);
    expect(original).toHaveLength(1);
    expect((original[0] as Error).message).toContain('ECONNRESET');
    const sent = toolResultsSent(model, 1).c1;
    expect(outputText(sent)).toContain('The weather service is unavailable; try again later.');
    expect(outputText(sent)).not.toContain('ECONNRESET');
    expect(result.text).toBe('Service is down.');
  });

  it('should always drain: every hook runs and sees the previous error', async () => {
    const fetch_weather = tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('raw failure');
      },
    });
    const seen: string[] = [];
    const interventions = createInterventions({
      hooks: {
        onToolCallError: [
          () => ({ error: new Error('wrapped once') }),
          (ctx) => {
            seen.push((ctx.error as Error).message);
          },
          (ctx) => ({ error: new Error(`${(ctx.error as Error).message}, wrapped twice`) }),
        ],
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });
    expect(seen).toEqual(['wrapped once']);
    expect(outputText(toolResultsSent(model, 1).c1)).toContain('wrapped once, wrapped twice');
  });

  it('should leave the error unchanged when the hook returns nothing', async () => {
    const fetch_weather = tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('upstream 503');
      },
    });
    let runs = 0;
    const interventions = createInterventions({ hooks: { onToolCallError: () => void runs++ } });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('done')));
    await interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'weather?' });
    expect(runs).toBe(1);
    expect(outputText(toolResultsSent(model, 1).c1)).toContain('upstream 503');
  });
});

// ---------------------------------------------------------------- chat lifecycle

describe('seed 004: chat lifecycle observers', () => {
  it('should fire onChatStart and onChatDone once each on success, never onChatError / onChatAbort', async () => {
    const { fetch_weather } = weatherTool();
    const life = lifecycleRecorder();
    const interventions = createInterventions({ hooks: life.hooks });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('21°C')));
    const controller = new AbortController();
    const result = await interventions.generateText({
      model,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'weather in Paris?',
      abortSignal: controller.signal,
      runtimeContext: { userId: 'u1' },
    });

    expect(life.events).toEqual(['start', 'done']);
    const start = life.started[0]!;
    expect(start.messages).toHaveLength(1);
    expect(start.messages[0]!.role).toBe('user');
    expect(messageText(start.messages[0]!)).toBe('weather in Paris?');
    expect(start.runtimeContext).toEqual({ userId: 'u1' });
    expect(start.abortSignal).toBeInstanceOf(AbortSignal);
    const done = life.done[0]!.response;
    expect(done.text).toBe('21°C');
    expect(done.text).toBe(result.text);
    expect(done.finishReason).toBe('stop');
    expect(done.steps).toHaveLength(2);
    expect(done.usage).toEqual(result.usage);
    expect(done.responseMessages).toEqual(result.responseMessages);
  });

  it('should fire onChatError once (not onChatDone / onChatAbort) when the provider throws, and rethrow that error', async () => {
    const life = lifecycleRecorder();
    const interventions = createInterventions({ hooks: life.hooks });
    const model = scriptedModel(); // no scripted response: the provider throws
    const error = await rejectionOf(interventions.generateText({ model, prompt: 'hi', maxRetries: 0 }));
    expect((error as Error).message).toContain('no response scripted');
    expect(life.events).toEqual(['start', 'error']);
    expect(life.errors).toEqual([error]);
  });

  it('should fire onChatAbort once (not onChatDone / onChatError) when aborted from inside a tool', async () => {
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const cancel = tool({
      inputSchema: z.object({}),
      execute: async () => {
        controller.abort(reason);
        return 'cancelling';
      },
    });
    const life = lifecycleRecorder();
    const interventions = createInterventions({ hooks: life.hooks });
    const model = scriptedModel(step(toolCall('c1', 'cancel', {})), step(text('should not be reached')), step(text('x')));
    const error = await rejectionOf(
      interventions.generateText({
        model,
        tools: { cancel },
        stopWhen: isStepCount(5),
        prompt: 'stop',
        abortSignal: controller.signal,
      }),
    );
    expect(error).toBeDefined();
    expect(life.events).toEqual(['start', 'abort']);
    expect(life.aborts).toEqual([reason]);
    expect(model.calls).toHaveLength(1);
  });

  it('should fire onChatAbort once when a streamText call is aborted from inside a tool', async () => {
    const controller = new AbortController();
    const cancel = tool({
      inputSchema: z.object({}),
      execute: async () => {
        controller.abort('stop');
        return 'cancelling';
      },
    });
    const life = lifecycleRecorder();
    const interventions = createInterventions({ hooks: life.hooks });
    const model = scriptedModel(step(toolCall('c1', 'cancel', {})), step(text('should not be reached')));
    const result = interventions.streamText({
      model,
      tools: { cancel },
      stopWhen: isStepCount(5),
      prompt: 'stop',
      abortSignal: controller.signal,
    });
    await result.consumeStream();
    await delay(20);
    expect(life.events).toEqual(['start', 'abort']);
    expect(life.aborts).toEqual(['stop']);
    expect(model.calls).toHaveLength(1);
  });

  it('should swallow a throw inside onChatError: the caller still gets the original error, later onChatError hooks still run', async () => {
    const life = lifecycleRecorder();
    const providerError = new Error('provider down');
    const model = scriptedModel();
    model.doGenerate = async () => {
      throw providerError;
    };
    const after: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatError: [
          () => {
            throw new Error('broken error reporter');
          },
          (ctx) => void after.push(ctx.error),
        ],
        onChatDone: life.hooks.onChatDone,
        onChatAbort: life.hooks.onChatAbort,
      },
    });
    const error = await rejectionOf(interventions.generateText({ model, prompt: 'hi', maxRetries: 0 }));
    expect(error).toBe(providerError);
    expect(after).toEqual([providerError]);
    expect(life.events).toEqual([]);
  });

  it('should swallow a throw inside onChatAbort: the caller still gets the abort, onChatError does not fire', async () => {
    const controller = new AbortController();
    const cancel = tool({
      inputSchema: z.object({}),
      execute: async () => {
        controller.abort(new Error('cancelled by user'));
        return 'cancelling';
      },
    });
    const errors: unknown[] = [];
    const aborts: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatAbort: [
          () => {
            throw new Error('broken abort reporter');
          },
          (ctx) => void aborts.push(ctx.reason),
        ],
        onChatError: (ctx) => void errors.push(ctx.error),
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'cancel', {})), step(text('never')));
    const error = await rejectionOf(
      interventions.generateText({ model, tools: { cancel }, stopWhen: isStepCount(5), prompt: 'x', abortSignal: controller.signal }),
    );
    expect((error as Error).message).not.toContain('broken abort reporter');
    expect(aborts).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('should end the call and fire onChatError when an observer throws (onChatStart)', async () => {
    const boom = new Error('onChatStart failed');
    const life = lifecycleRecorder();
    const interventions = createInterventions({
      hooks: {
        onChatStart: () => {
          throw boom;
        },
        onChatDone: life.hooks.onChatDone,
        onChatError: life.hooks.onChatError,
        onChatAbort: life.hooks.onChatAbort,
      },
    });
    const model = scriptedModel(step(text('never')));
    const error = await rejectionOf(interventions.generateText({ model, prompt: 'hi' }));
    expect(error).toBe(boom);
    expect(model.calls).toHaveLength(0);
    expect(life.events).toEqual(['error']);
    expect(life.errors).toEqual([boom]);
  });

  it('should end the call and fire onChatError when onMessage throws', async () => {
    const { fetch_weather } = weatherTool();
    const boom = new Error('onMessage failed');
    const life = lifecycleRecorder();
    const interventions = createInterventions({
      hooks: {
        ...life.hooks,
        onMessage: ({ message }) => {
          if (message.role === 'tool') throw boom;
        },
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('never')));
    const error = await rejectionOf(
      interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(5), prompt: 'hi' }),
    );
    expect(error).toBe(boom);
    expect(model.calls).toHaveLength(1);
    expect(life.events).toEqual(['start', 'error']);
    expect(life.errors).toEqual([boom]);
  });

  it('should fire onChatError and rethrow when onChatDone throws', async () => {
    const boom = new Error('onChatDone failed');
    const errors: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatDone: () => {
          throw boom;
        },
        onChatError: (ctx) => void errors.push(ctx.error),
      },
    });
    const model = scriptedModel(step(text('ok')));
    const error = await rejectionOf(interventions.generateText({ model, prompt: 'hi' }));
    expect(error).toBe(boom);
    expect(errors).toEqual([boom]);
  });

  it('should end the call and fire onChatError when an interceptor throws (preRequest, onResponse, onToolCallResult, onToolCallError)', async () => {
    const failing = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('tool failed');
      },
    });
    const { fetch_weather } = weatherTool();
    const cases = [
      { hook: 'preRequest', calls: 0, tool: 'fetch_weather' },
      { hook: 'onResponse', calls: 1, tool: 'fetch_weather' },
      { hook: 'onToolCallResult', calls: 1, tool: 'fetch_weather' },
      { hook: 'onToolCallError', calls: 1, tool: 'failing' },
    ] as const;
    for (const { hook, calls, tool: toolName } of cases) {
      const boom = new Error(`${hook} failed`);
      const life = lifecycleRecorder();
      const interventions = createInterventions({ hooks: life.hooks });
      interventions.addHook(hook, () => {
        throw boom;
      });
      const model = scriptedModel(step(toolCall('c1', toolName, { city: 'Paris' })), step(text('never')));
      const error = await rejectionOf(
        interventions.generateText({ model, tools: { fetch_weather, failing }, stopWhen: isStepCount(5), prompt: 'hi' }),
      );
      expect(error, hook).toBe(boom);
      expect(model.calls, hook).toHaveLength(calls);
      expect(life.events, hook).toEqual(['start', 'error']);
      expect(life.errors, hook).toEqual([boom]);
    }
  });

  it('should fire onChatStart and onChatDone once each for streamText, and onChatError once when a hook throws mid-stream', async () => {
    const { fetch_weather } = weatherTool();
    const ok = lifecycleRecorder();
    const okModel = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('streamed done')));
    const okResult = createInterventions({ hooks: ok.hooks }).streamText({
      model: okModel,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'hi',
    });
    expect(await okResult.text).toBe('streamed done');
    await delay(10);
    expect(ok.events).toEqual(['start', 'done']);
    expect(ok.done[0]!.response.text).toBe('streamed done');

    const boom = new Error('preToolCall failed');
    const bad = lifecycleRecorder();
    const interventions = createInterventions({ hooks: bad.hooks });
    interventions.addHook('preToolCall', () => {
      throw boom;
    });
    const badModel = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('never')));
    const errors: unknown[] = [];
    const badResult = interventions.streamText({
      model: badModel,
      tools: { fetch_weather },
      stopWhen: isStepCount(5),
      prompt: 'hi',
      onError: ({ error }) => void errors.push(error),
    });
    await badResult.consumeStream();
    await delay(20);
    expect(badModel.calls).toHaveLength(1);
    expect(errors).toContain(boom);
    expect(bad.events).toEqual(['start', 'error']);
    expect(bad.errors).toEqual([boom]);
  });
});

// ---------------------------------------------------------------- streamText parity

describe('seed 004: tool hooks through streamText', () => {
  it('should apply preToolCall { result }, onToolCallResult and onToolCallError the same way when streaming', async () => {
    const { fetch_weather, executed } = weatherTool();
    const list_users = tool({
      inputSchema: z.object({}),
      execute: async () => [{ name: 'Ada', email: 'ada@example.com' }],
    });
    const interventions = createInterventions({
      hooks: {
        preToolCall: (ctx) =>
          ctx.call.toolName === 'fetch_weather' && (ctx.call.input as { city: string }).city === 'Paris'
            ? { result: { city: 'Paris', tempC: 18, source: 'cache' } }
            : undefined,
        onToolCallResult: (ctx) =>
          ctx.call.toolName === 'list_users'
            ? { result: (ctx.result as Array<{ name: string }>).map((user) => ({ ...user, email: '[redacted]' })) }
            : undefined,
        onToolCallError: (ctx) =>
          InvalidToolInputError.isInstance(ctx.error) ? { error: new Error(`Bad arguments for ${ctx.call.toolName}`) } : undefined,
      },
    });
    const model = scriptedModel(
      step(
        toolCall('c1', 'fetch_weather', { city: 'Paris' }),
        toolCall('c2', 'list_users', {}),
        toolCall('c3', 'fetch_weather', { city: 7 }),
      ),
      step(text('streamed done')),
    );
    const result = interventions.streamText({
      model,
      tools: { fetch_weather, list_users },
      stopWhen: isStepCount(5),
      prompt: 'go',
    });
    expect(await result.text).toBe('streamed done');
    expect(executed).toEqual([]);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'json', value: { city: 'Paris', tempC: 18, source: 'cache' } });
    expect(sent.c2).toEqual({ type: 'json', value: [{ name: 'Ada', email: '[redacted]' }] });
    expect(outputText(sent.c3)).toContain('Bad arguments for fetch_weather');
  });

  it('should end a streamText call and fire onChatError once when onChatStart throws', async () => {
    const boom = new Error('onChatStart failed');
    const errors: unknown[] = [];
    const done: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        onChatStart: () => {
          throw boom;
        },
        onChatError: (ctx) => void errors.push(ctx.error),
        onChatDone: (ctx) => void done.push(ctx),
      },
    });
    const model = scriptedModel(step(text('never')));
    const reported: unknown[] = [];
    const result = interventions.streamText({ model, prompt: 'hi', onError: ({ error }) => void reported.push(error) });
    const parts: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') parts.push(part.error);
    // the stream reports it as the SDK reports any failure before the first output
    expect(parts).toEqual([boom]);
    expect(reported).toEqual([boom]);
    expect(NoOutputGeneratedError.isInstance(await rejectionOf(result.text))).toBe(true);
    await delay(20);
    expect(model.calls).toHaveLength(0);
    expect(errors).toEqual([boom]);
    expect(done).toEqual([]);
  });
});

// keep the helper type imports honest
export type { LanguageModelV4GenerateResult };
