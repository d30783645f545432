import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeInvocationEvent,
  type BeforeModelCallEvent,
  createInterventions,
  DENIED_FINISH_REASON,
  defineHandler,
  InterventionActions,
  InvalidActionError,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const tools = () => ({
  search: tool({ description: 'Search the web', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` }),
  delete_file: tool({ description: 'Delete a file', inputSchema: z.object({ path: z.string() }), execute: async () => 'deleted' }),
});

describe('beforeInvocation', () => {
  it('should transform instructions and input once, before the first model call', async () => {
    let calls = 0;
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'context',
          beforeInvocation: () => {
            calls++;
            return InterventionActions.transform<BeforeInvocationEvent>((draft) => {
              draft.instructions = `${String(draft.instructions)}\nCurrent time: noon`;
              draft.messages.push({ role: 'user', content: 'Answer briefly.' });
            });
          },
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('ok')));
    await interventions.generateText({ model, tools: tools(), instructions: 'You help.', stopWhen: isStepCount(3), prompt: 'hi' });
    expect(calls).toBe(1);
    for (const request of model.calls) {
      expect(request.prompt[0]).toEqual({ role: 'system', content: 'You help.\nCurrent time: noon' });
      expect(request.prompt[2]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'Answer briefly.' }] });
    }
  });

  it('should add guide feedback to the input as a user message', async () => {
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'scope', beforeInvocation: () => InterventionActions.guide('Only answer about cooking.') })],
    });
    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({ model, prompt: 'hi' });
    expect(model.calls[0]?.prompt.at(-1)).toEqual({
      role: 'user',
      // labelled as the library's text, not the user's words (flowPolicy reads it)
      content: [
        { type: 'text', text: '[scope] Only answer about cooking.', providerOptions: { 'ai-interventions': { injected: 'guidance' } } },
      ],
    });
  });

  it('should hide a removed tool from the model and refuse calls to it', async () => {
    let deleted = 0;
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'read-only',
          beforeInvocation: () =>
            InterventionActions.transform<BeforeInvocationEvent>((draft) => {
              delete draft.tools.delete_file;
            }),
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 'delete_file', { path: '/a' })), step(text('ok')));
    const set = {
      ...tools(),
      delete_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => (deleted++, 'deleted') }),
    };
    await interventions.generateText({ model, tools: set, stopWhen: isStepCount(3), prompt: 'hi' });
    expect(model.calls[0]?.tools?.map((definition) => definition.name)).toEqual(['search']);
    expect(deleted).toBe(0);
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain('unavailable tool');
  });

  it('should reject a transform that adds a tool, naming the handler', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'adds-tools',
          beforeInvocation: () =>
            InterventionActions.transform<BeforeInvocationEvent>((draft) => {
              draft.tools.extra = tool({ inputSchema: z.object({}), execute: async () => 'x' });
            }),
        }),
      ],
    });
    const error = await interventions
      .generateText({ model: scriptedModel(step(text('x'))), tools: tools(), prompt: 'hi' })
      .catch((caught: unknown) => caught);
    expect(InvalidActionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ handlerName: 'adds-tools' });
  });
});

describe('beforeModelCall', () => {
  it('should end the run with the reason when a handler denies, without calling the model', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'budget',
          beforeModelCall: (event: BeforeModelCallEvent) =>
            event.stepNumber >= 1 ? InterventionActions.deny('Step budget reached.') : InterventionActions.proceed(),
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('never')));
    const result = await interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(5), prompt: 'hi' });
    expect(model.calls).toHaveLength(1);
    expect(result.text).toBe('Step budget reached.');
    expect(result.finalStep.rawFinishReason).toBe(DENIED_FINISH_REASON);
    expect(result.steps).toHaveLength(2);
  });

  it('should inject guide feedback as a user message before the model call', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'wrap-up',
          beforeModelCall: (event: BeforeModelCallEvent) =>
            event.stepNumber === 1 ? InterventionActions.guide('Wrap up now.') : InterventionActions.proceed(),
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('done')));
    await interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(5), prompt: 'hi' });
    expect(model.calls[0]?.prompt.at(-1)).toMatchObject({ role: 'user' });
    expect(model.calls[1]?.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[wrap-up] Wrap up now.', providerOptions: { 'ai-interventions': { injected: 'guidance' } } }],
    });
    expect(model.calls[1]?.prompt.at(-2)).toMatchObject({ role: 'tool' });
  });

  it('should transform messages, active tools and settings for the step', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'window',
          beforeModelCall: () =>
            InterventionActions.transform<BeforeModelCallEvent>((draft) => {
              draft.messages = draft.messages.slice(-1);
              draft.activeTools = ['search'];
              draft.settings.temperature = 0;
            }),
        }),
      ],
    });
    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({
      model,
      tools: tools(),
      temperature: 0.9,
      messages: [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'old answer' },
        { role: 'user', content: 'new question' },
      ],
    });
    const request = model.calls[0];
    expect(request?.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'new question' }] }]);
    expect(request?.tools?.map((definition) => definition.name)).toEqual(['search']);
    expect(request?.temperature).toBe(0);
  });

  it("should compose with the caller's prepareStep, which sees the run's messages first", async () => {
    const seen: number[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'observer',
          beforeModelCall: (event: BeforeModelCallEvent) => {
            seen.push(event.messages.length);
            return InterventionActions.proceed();
          },
        }),
      ],
    });
    const model = scriptedModel(step(text('ok')));
    await interventions.generateText({
      model,
      prompt: 'hi',
      prepareStep: ({ messages }) => ({ messages: [...messages, { role: 'user', content: 'from prepareStep' }] }),
    });
    expect(seen).toEqual([2]);
    expect(model.calls[0]?.prompt.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'from prepareStep' }] });
  });
});
