/**
 * Tools a runtime wrapped for plain calls (`wrapTools`): given to the same
 * runtime's own wrappers, the run guards the originals itself, so every
 * guard meets each call once, as with the tools as defined; with plain
 * calls, the runtime knows its wrapped tools and its wrapped model by
 * identity (the real `@ai-sdk/openai` provider on a loopback server).
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { generateText, isStepCount, type ModelMessage, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, GuardNotEnforcedError, InterventionActions } from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, toolCall as wireCall } from '../helpers/openai-compatible-server.ts';
import { serve } from '../helpers/openai-wire.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

function echoTools(ran: string[]) {
  return { echo: tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(text), text) }) };
}

describe.each(['generateText', 'streamText'] as const)('wrapped tools given to the runtime’s own %s', (mode) => {
  it.each(['as defined', 'wrapped by the runtime'] as const)('meet each guard once per call (tools %s)', async (given) => {
    const seen: string[] = [];
    const interventions = createInterventions({
      handlers: [
        {
          name: 'counter',
          beforeToolCall: (event) => (seen.push(`before ${event.toolCall.toolCallId}`), InterventionActions.proceed()),
          afterToolCall: (event) => (seen.push(`after ${event.toolCall.toolCallId}`), InterventionActions.proceed()),
        },
      ],
    });
    const ran: string[] = [];
    const tools = given === 'as defined' ? echoTools(ran) : interventions.wrapTools(echoTools(ran));
    const options = {
      model: scriptedModel(step(toolCall('c1', 'echo', { text: 'one' }), toolCall('c2', 'echo', { text: 'two' })), step(text('done'))),
      tools,
      stopWhen: isStepCount(2),
      prompt: 'x',
    };
    const result = mode === 'generateText' ? await interventions.generateText(options) : interventions.streamText(options);
    if (mode === 'streamText') await (result as ReturnType<typeof interventions.streamText>).consumeStream();
    const decisions = await Promise.resolve(result.interventions.decisions);

    expect(ran).toEqual(['one', 'two']);
    expect([...seen].sort()).toEqual(['after c1', 'after c2', 'before c1', 'before c2']);
    expect(decisions.map((record) => `${record.lifecycle} ${record.toolCallId}`).sort()).toEqual([
      'afterToolCall c1',
      'afterToolCall c2',
      'beforeToolCall c1',
      'beforeToolCall c2',
    ]);
  });
});

describe.each(['generateText', 'streamText'] as const)('tools and models known by identity, never by name (plain %s)', (mode) => {
  /** A plain SDK call, its error (a rejected generateText, or a stream's error part) returned rather than thrown. */
  async function plain(options: Parameters<typeof generateText>[0]): Promise<unknown> {
    try {
      if (mode === 'generateText') await generateText(options);
      else {
        const errors: unknown[] = [];
        const result = streamText({ ...(options as Parameters<typeof streamText>[0]), onError: ({ error }) => void errors.push(error) });
        for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
        if (errors.length > 0) return errors[0];
      }
      return undefined;
    } catch (error) {
      return error;
    }
  }
  const noEcho = defineHandler({ name: 'no-echo', beforeToolCall: () => InterventionActions.deny('Echo is off.') });

  it('should refuse a raw tool behind the middleware though a tool of the same name was wrapped elsewhere: the deny is never silently skipped', async () => {
    const interventions = createInterventions({ handlers: [noEcho] });
    const ran: string[] = [];
    // one route wraps its tools; another hands the same name to the wrapped model unwrapped
    interventions.wrapTools(echoTools([]));
    const { model: provider } = await serve('chat', replyToolCalls(wireCall('c1', 'echo', { text: 'raw' })), replyText('done'));
    const model = wrapLanguageModel({ model: provider as LanguageModelV4, middleware: interventions.middleware });

    const error = await plain({ model, tools: echoTools(ran), stopWhen: isStepCount(2), prompt: 'x' });

    expect(GuardNotEnforcedError.isInstance(error)).toBe(true);
    expect((error as GuardNotEnforcedError).guard).toContain('no-echo');
    expect(ran).toEqual([]);
  });

  it('should run the tools it wrapped behind the middleware, and give the provider their definitions as the app made them', async () => {
    const interventions = createInterventions({ handlers: [noEcho] });
    const ran: string[] = [];
    const tools = interventions.wrapTools(echoTools(ran));
    const { server, model: provider } = await serve('chat', replyToolCalls(wireCall('c1', 'echo', { text: 'wrapped' })), replyText('done'));
    const model = wrapLanguageModel({ model: provider as LanguageModelV4, middleware: interventions.middleware });

    expect(await plain({ model, tools, stopWhen: isStepCount(2), prompt: 'x' })).toBeUndefined();

    expect(ran).toEqual([]);
    const [definition] = server.requests[0]?.body.tools ?? [];
    expect(definition).not.toHaveProperty('providerOptions');
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('Echo is off.');
  });

  it('should refuse a call of a wrapped tool from a model not wrapped with the middleware while a model-layer guard is registered, though the middleware was read', async () => {
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'answer-check', afterModelCall: () => InterventionActions.proceed() })],
    });
    void interventions.middleware; // read, as an app that wraps some other model with it
    const ran: string[] = [];
    const tools = interventions.wrapTools(echoTools(ran));
    const { model } = await serve('chat', replyToolCalls(wireCall('c1', 'echo', { text: 'unguarded' })), replyText('done'));

    const error = await plain({ model, tools, stopWhen: isStepCount(2), prompt: 'x' });

    expect(GuardNotEnforcedError.isInstance(error)).toBe(true);
    expect((error as GuardNotEnforcedError).guard).toContain('answer-check');
    expect(ran).toEqual([]);
  });

  it('should run a call of a wrapped tool from the model wrapped with the middleware, the model-layer guard acting', async () => {
    const checked: number[] = [];
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'answer-check', afterModelCall: () => (checked.push(1), InterventionActions.proceed()) })],
    });
    const model = wrapLanguageModel({
      model: (await serve('chat', replyToolCalls(wireCall('c1', 'echo', { text: 'guarded' })), replyText('done'))).model as LanguageModelV4,
      middleware: interventions.middleware,
    });
    const ran: string[] = [];
    const tools = interventions.wrapTools(echoTools(ran));

    expect(await plain({ model, tools, stopWhen: isStepCount(2), prompt: 'x' })).toBeUndefined();

    expect(ran).toEqual(['guarded']);
    expect(checked.length).toBeGreaterThanOrEqual(1);
  });

  it('should take a call the history resumes for a resumed call, though its answer was dropped (a provider repeating an id in one response), and replay it without refusing the path', async () => {
    const interventions = createInterventions({
      handlers: [
        defineHandler({ name: 'answer-check', afterModelCall: () => InterventionActions.proceed() }),
        defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Echo?') }),
      ],
    });
    const scripted = scriptedModel(
      step(toolCall('c1', 'echo', { text: 'first' }), toolCall('c1', 'echo', { text: 'second' })),
      step(text('done')),
      step(text('done again')),
    );
    const model = wrapLanguageModel({ model: scripted, middleware: interventions.middleware });
    const ran: string[] = [];
    const tools = interventions.wrapTools(echoTools(ran));
    const prompt: ModelMessage[] = [{ role: 'user', content: 'x' }];
    const first =
      mode === 'generateText' ? await generateText({ model, tools, messages: prompt }) : streamText({ model, tools, messages: prompt });
    const requests = approvalRequests(await first.content);
    expect(requests.length).toBeGreaterThan(0);
    const answered: ModelMessage[] = [
      ...prompt,
      ...(await first.response).messages,
      {
        role: 'tool',
        content: requests.map((request) => ({ type: 'tool-approval-response' as const, approvalId: request.approvalId, approved: true })),
      },
    ];

    // the resume, then the same history sent again: neither is a call from a model that is not wrapped
    expect(await plain({ model, tools, stopWhen: isStepCount(2), messages: [...answered] })).toBeUndefined();
    expect(await plain({ model, tools, stopWhen: isStepCount(2), messages: [...answered] })).toBeUndefined();

    // two calls one id answers cannot be told apart: at most one runs, once
    expect(ran.length).toBeLessThanOrEqual(1);
  });
});
