import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type AfterModelCallEvent,
  createInterventions,
  defineHandler,
  InterventionActions,
  type ProviderResponse,
} from '../../src/index.ts';
import { scriptedModel, step, text } from '../helpers/scripted-model.ts';

const textOf = (response: ProviderResponse) => response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('interventions.middleware', () => {
  it('should run preRequest and onResponse hooks on any wrapLanguageModel', async () => {
    const interventions = createInterventions({
      hooks: {
        preRequest: ({ request }) => ({
          request: { ...request, prompt: [{ role: 'system', content: 'Be concise.' }, ...request.prompt] },
        }),
        onResponse: ({ response }) => ({
          response: {
            ...response,
            content: response.content.map((part) => (part.type === 'text' ? { ...part, text: part.text.trim() } : part)),
          },
        }),
      },
    });
    const inner = scriptedModel(step(text('  hello  ')));
    const model = wrapLanguageModel({ model: inner, middleware: interventions.middleware });
    const result = await generateText({ model, prompt: 'hi' });
    expect(result.text).toBe('hello');
    expect(inner.calls[0]?.prompt[0]).toEqual({ role: 'system', content: 'Be concise.' });
  });

  it('should short-circuit generate and stream calls from a cache without calling the provider', async () => {
    const cache = new Map<string, ProviderResponse>();
    const interventions = createInterventions({
      hooks: {
        preRequest: ({ request }) => {
          const cached = cache.get(JSON.stringify(request.prompt));
          if (cached) return { response: cached };
        },
        onResponse: ({ request, response }) => void cache.set(JSON.stringify(request.prompt), response),
      },
    });
    const inner = scriptedModel(step(text('computed once')));
    const model = wrapLanguageModel({ model: inner, middleware: interventions.middleware });
    expect((await generateText({ model, prompt: 'same' })).text).toBe('computed once');
    expect((await generateText({ model, prompt: 'same' })).text).toBe('computed once');
    expect(await streamText({ model, prompt: 'same' }).text).toBe('computed once');
    expect(inner.calls).toHaveLength(1);
  });

  it('should retry the model with afterModelCall feedback, bounded by maxGuideRetries', async () => {
    const interventions = createInterventions({
      maxGuideRetries: 1,
      handlers: [
        defineHandler({
          name: 'tone-steering',
          afterModelCall: (event: AfterModelCallEvent) =>
            /dumb/.test(textOf(event.response))
              ? InterventionActions.guide('Use a more professional tone.')
              : InterventionActions.proceed(),
        }),
      ],
    });
    const inner = scriptedModel(step(text('that is dumb')), step(text('that is dumb again')));
    const model = wrapLanguageModel({ model: inner, middleware: interventions.middleware });
    const result = await generateText({ model, prompt: 'review this' });
    expect(inner.calls).toHaveLength(2);
    expect(inner.calls[1]?.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[tone-steering] Use a more professional tone.' }],
    });
    // the retries are exhausted: the last response is kept, the guide recorded as not enforced
    expect(result.text).toBe('that is dumb again');
    expect(result.usage.inputTokens).toBe(20);
  });

  it('should hold a streamed step back until afterModelCall handlers decide', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'tone-steering',
          afterModelCall: (event: AfterModelCallEvent) =>
            /dumb/.test(textOf(event.response))
              ? InterventionActions.guide('Use a more professional tone.')
              : InterventionActions.proceed(),
        }),
      ],
    });
    const inner = scriptedModel(step(text('that is dumb')), step(text('that needs work')));
    const model = wrapLanguageModel({ model: inner, middleware: interventions.middleware });
    const chunks: string[] = [];
    for await (const chunk of streamText({ model, prompt: 'review this' }).textStream) chunks.push(chunk);
    expect(chunks.join('')).toBe('that needs work');
  });
});
