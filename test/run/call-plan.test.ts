/**
 * Where a run's tool calls are decided: in the model layer (a streamed
 * step's held until decided) when something needs it, or, when every
 * `beforeToolCall` handler declares `toolCallActions` without `transform`,
 * at the SDK's own approval point, `generateText` and `streamText` alike,
 * as the raw SDK asks its own (a stream's calls as the provider sends them).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, type TextStreamPart, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callBudget,
  createInterventions,
  defineHandler,
  humanApproval,
  InterventionActions,
  InterventionHandlerError,
  type InterventionHandlerLike,
  InvalidActionError,
  InvalidHandlerError,
  type ToolCallActionType,
  toolPolicy,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, usage } from '../helpers/scripted-model.ts';
import { DONE_STEP, TWO_CALL_STEP } from '../helpers/streamed-calls.ts';

const TOOL_STEP = TWO_CALL_STEP;
const LAST_STEP = DONE_STEP;

/** A model streaming `first`, then "done"; `calls` records each request. */
function twoStepModel(first: readonly LanguageModelV4StreamPart[] = TOOL_STEP) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      const parts = calls.length === 1 ? first : LAST_STEP;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

function echoTools(ran: string[], { needsApproval }: { needsApproval?: boolean } = {}) {
  return {
    echo: tool({
      inputSchema: z.object({ text: z.string() }),
      ...(needsApproval === undefined ? {} : { needsApproval }),
      execute: async ({ text }) => {
        ran.push(text);
        return text;
      },
    }),
  };
}

/** Denies a call whose text starts with "secret"; declares it only ever denies. */
const denySecrets = defineHandler({
  name: 'deny-secrets',
  toolCallActions: ['deny'],
  beforeToolCall: ({ toolCall }) =>
    (toolCall.input as { text: string }).text.startsWith('secret')
      ? InterventionActions.deny('No secrets.')
      : InterventionActions.proceed(),
});

/** What a stream part shows of a tool call, the same raw and wrapped (no generated ids, no timestamps). */
function toolView(part: TextStreamPart<ToolSet>): string | undefined {
  switch (part.type) {
    case 'tool-input-start':
      return `start ${part.id}`;
    case 'tool-input-delta':
      return `delta ${part.id} ${part.delta}`;
    case 'tool-input-end':
      return `end ${part.id}`;
    case 'tool-call':
      return `call ${part.toolCallId} ${JSON.stringify(part.input)}`;
    case 'tool-result':
      return `result ${part.toolCallId} ${JSON.stringify(part.output)}`;
    case 'tool-approval-request':
      return `request ${part.toolCall.toolCallId}${part.signature === undefined ? '' : ' signed'}`;
    default:
      return undefined;
  }
}

async function streamed(
  handlers: InterventionHandlerLike[] | 'raw',
  { first, needsApproval }: { first?: readonly LanguageModelV4StreamPart[]; needsApproval?: boolean } = {},
) {
  const ran: string[] = [];
  const { model, calls } = twoStepModel(first);
  const options = { model, tools: echoTools(ran, { needsApproval }), prompt: 'go', stopWhen: isStepCount(2) };
  const errors: unknown[] = [];
  const onError = ({ error }: { error: unknown }) => {
    errors.push(error);
  };
  const result =
    handlers === 'raw' ? streamText({ ...options, onError }) : createInterventions({ handlers }).streamText({ ...options, onError });
  const parts: string[] = [];
  for await (const part of result.fullStream) {
    const view = toolView(part);
    if (view !== undefined) parts.push(view);
    if (part.type === 'error') errors.push(part.error);
  }
  return { parts, ran, calls, errors };
}

/**
 * {@link TOOL_STEP} from a provider that, after c1's first delta, waits (up
 * to 200 ms) for the client to get that delta before it sends the rest:
 * `events` says whether the client got it before the provider sent the call.
 */
async function streamedLive(handlers: InterventionHandlerLike[] | 'raw') {
  const events: string[] = [];
  const ran: string[] = [];
  let clientGotDelta: () => void = () => {};
  const gotDelta = new Promise<void>((resolve) => {
    clientGotDelta = resolve;
    setTimeout(resolve, 200);
  });
  let requests = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      const parts = requests++ === 0 ? TOOL_STEP : LAST_STEP;
      let index = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            const part = parts[index++] as LanguageModelV4StreamPart;
            if (part.type === 'tool-call' && part.toolCallId === 'c1') {
              await gotDelta;
              events.push('provider sent the call');
            }
            controller.enqueue(part);
            if (index === parts.length) controller.close();
          },
        }),
      };
    },
  });
  const options = { model, tools: echoTools(ran), prompt: 'go', stopWhen: isStepCount(2) };
  const result = handlers === 'raw' ? streamText(options) : createInterventions({ handlers }).streamText(options);
  const parts: string[] = [];
  for await (const part of result.fullStream) {
    const view = toolView(part);
    if (view !== undefined) parts.push(view);
    if (part.type === 'tool-input-delta' && part.id === 'c1' && parts.filter((item) => item.startsWith('delta c1')).length === 1) {
      events.push('client got the first delta');
      clientGotDelta();
    }
  }
  return { events, parts, ran };
}

describe('holdsStreamedCalls (through interventions.streamText)', () => {
  describe('when every beforeToolCall handler declares toolCallActions without transform', () => {
    it('should stream each call as the raw SDK streams it, its arguments reaching the client before the provider completes the call', async () => {
      const proceedOnly = defineHandler({ name: 'proceed-only', toolCallActions: [], beforeToolCall: () => InterventionActions.proceed() });

      const raw = await streamedLive('raw');
      const wrapped = await streamedLive([proceedOnly]);

      expect(raw.events).toEqual(['client got the first delta', 'provider sent the call']);
      expect(wrapped.events).toEqual(raw.events);
      expect(wrapped.parts).toEqual(raw.parts);
      expect(wrapped.ran).toEqual(['secret-1', 'two']);
    });

    it("should leave the app's own approval request as the raw SDK's (unsigned) when none may confirm", async () => {
      const raw = await streamed('raw', { needsApproval: true });
      const wrapped = await streamed([denySecrets], { needsApproval: true });

      expect(raw.parts).toContain('request c2');
      // c1 is denied by the handler, c2 is the app's own request, unsigned as raw
      expect(wrapped.parts.filter((part) => part.startsWith('request'))).toEqual(['request c1', 'request c2']);
      expect(wrapped.ran).toEqual([]);
    });

    it("should deny a call at the SDK's approval point: it never runs, and the model reads the denial", async () => {
      const { ran, calls } = await streamed([denySecrets]);

      expect(ran).toEqual(['two']);
      const results = calls[1]?.prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
      expect(results).toEqual([
        expect.objectContaining({
          toolCallId: 'c1',
          output: expect.objectContaining({ type: 'execution-denied', reason: expect.stringContaining('No secrets.') }),
        }),
        expect.objectContaining({ toolCallId: 'c2', output: { type: 'text', value: 'two' } }),
      ]);
    });

    it('should refuse an action the handler did not declare with an InvalidActionError naming it, and run nothing', async () => {
      const sneaky = defineHandler({
        name: 'sneaky',
        toolCallActions: ['deny'],
        beforeToolCall: () =>
          InterventionActions.transform((draft) => {
            if ('toolCall' in draft) draft.toolCall.input = { text: 'changed' };
          }),
      });

      const { ran, calls, errors } = await streamed([sneaky]);

      const error = errors.find((item) => InvalidActionError.isInstance(item));
      expect(error).toBeDefined();
      expect((error as InvalidActionError).handlerName).toBe('sneaky');
      expect((error as InvalidActionError).message).toContain("add 'transform' to toolCallActions");
      expect(ran).toEqual([]);
      expect(calls).toHaveLength(1);
    });

    it("should end the stream with a handler's failure, running nothing and asking the model nothing more", async () => {
      const broken = defineHandler({
        name: 'broken',
        toolCallActions: ['deny'],
        beforeToolCall: () => {
          throw new Error('policy service down');
        },
      });

      const { ran, calls, errors } = await streamed([broken]);

      const error = errors.find((item) => InterventionHandlerError.isInstance(item));
      expect((error as InterventionHandlerError | undefined)?.handlerName).toBe('broken');
      expect(ran).toEqual([]);
      expect(calls).toHaveLength(1);
    });

    it('should deny a second call repeating an id (fail closed), so only the first runs', async () => {
      const first: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"one"}' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"other"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
      ];

      const { ran } = await streamed([denySecrets], { first });

      expect(ran).toEqual(['one']);
    });
  });

  describe('when the guards are built-ins (they declare they never transform)', () => {
    it.each([
      ['toolPolicy', () => toolPolicy({ rules: [{ allow: 'echo' }], default: 'deny' })],
      ['callBudget', () => callBudget({ per: 'run', maxToolCalls: 10 })],
      ['humanApproval', () => humanApproval({ tools: ({ toolCall }) => toolCall.toolName === 'other_tool' })],
    ])('should stream the calls %s lets through as the raw SDK does', async (_, guard) => {
      const raw = await streamedLive('raw');
      const wrapped = await streamedLive([guard()]);

      expect(wrapped.events).toEqual(raw.events);
      expect(wrapped.parts).toEqual(raw.parts);
      expect(wrapped.ran).toEqual(['secret-1', 'two']);
    });
  });

  describe('when a decision takes a while at the approval point', () => {
    const slowDeny = (toolName: string) =>
      defineHandler({
        name: 'slow-deny',
        toolCallActions: ['deny'],
        beforeToolCall: async ({ toolCall }) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return toolCall.toolName === toolName ? InterventionActions.deny('Not this one.') : InterventionActions.proceed();
        },
      });
    const oneCall = (toolName: string): LanguageModelV4StreamPart[] => [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'c1', toolName, input: '{"text":"x"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];

    it('should hold the calls when a tool has no execute, so the client is never handed a call its deny stops', async () => {
      const { model } = twoStepModel(oneCall('ask_on_device'));
      const tools = { ask_on_device: tool({ inputSchema: z.object({ text: z.string() }) }) };
      const result = createInterventions({ handlers: [slowDeny('ask_on_device')] }).streamText({
        model,
        tools,
        prompt: 'go',
        stopWhen: isStepCount(1),
      });

      const chunks: { readonly type: string; readonly toolCallId?: string }[] = [];
      for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);

      expect(chunks.some((chunk) => chunk.type === 'tool-output-denied' && chunk.toolCallId === 'c1')).toBe(true);
      expect(chunks.filter((chunk) => chunk.type === 'tool-input-available')).toEqual([]);
    });

    it("should give the call one decision part, once it is decided, with every handler's record", async () => {
      const ran: string[] = [];
      const { model } = twoStepModel(oneCall('echo'));
      const proceedOnly = defineHandler({ name: 'proceed-only', toolCallActions: [], beforeToolCall: () => InterventionActions.proceed() });
      const result = createInterventions({ handlers: [proceedOnly, slowDeny('echo')], decisionParts: 'all' }).streamText({
        model,
        tools: echoTools(ran),
        prompt: 'go',
        stopWhen: isStepCount(1),
      });

      const decisions: unknown[] = [];
      for await (const chunk of result.toUIMessageStream()) if (chunk.type === 'data-intervention') decisions.push(chunk.data);

      expect(decisions).toEqual([
        expect.objectContaining({
          toolCallId: 'c1',
          action: 'deny',
          records: [
            expect.objectContaining({ handler: 'proceed-only' }),
            expect.objectContaining({ handler: 'slow-deny', action: 'deny' }),
          ],
        }),
      ]);
      expect(ran).toEqual([]);
    });
  });

  describe('when a handler may transform', () => {
    it.each([
      ['declares transform', ['deny', 'transform'] as const],
      ['declares nothing', undefined],
    ])('should hold each call until it is decided when it %s: no argument before its decision', async (_, toolCallActions) => {
      const redact = defineHandler({
        name: 'redact',
        ...(toolCallActions === undefined ? {} : { toolCallActions: [...toolCallActions] }),
        beforeToolCall: ({ toolCall }) =>
          (toolCall.input as { text: string }).text.startsWith('secret')
            ? InterventionActions.transform((draft) => {
                if ('toolCall' in draft) draft.toolCall.input = { text: '[redacted]' };
              })
            : InterventionActions.proceed(),
      });

      const { parts, ran } = await streamed([redact]);

      expect(parts.join('\n')).not.toContain('secret');
      expect(parts).toContain('call c1 {"text":"[redacted]"}');
      expect(ran).toEqual(['[redacted]', 'two']);
    });
  });
});

/**
 * One generateText step with `first`'s calls, then "done": the order in which
 * the tool's onInputAvailable and the handlers met each call (`events`, which
 * `handlers` are given), what ran, and what the model was sent.
 */
async function generated(handlers: ((events: string[]) => InterventionHandlerLike[]) | 'raw', first: LanguageModelV4Content[]) {
  const events: string[] = [];
  const ran: string[] = [];
  const model = scriptedModel(step(...first), step(text('done')));
  const tools = {
    echo: tool({
      inputSchema: z.object({ text: z.string() }),
      onInputAvailable: ({ input }) => void events.push(`onInputAvailable ${input.text}`),
      execute: async ({ text }) => {
        ran.push(text);
        return text;
      },
    }),
  };
  const options = { model, tools, prompt: 'go', stopWhen: isStepCount(2) };
  const result = await (handlers === 'raw'
    ? generateText(options)
    : createInterventions({ handlers: handlers(events) }).generateText(options));
  return { events, ran, result, calls: model.calls };
}

/** A handler that notes each call it decides in `events`, denying a text that starts with "secret". */
const noting =
  (toolCallActions?: ToolCallActionType[]) =>
  (events: string[]): InterventionHandlerLike[] => [
    defineHandler({
      name: 'noting',
      ...(toolCallActions === undefined ? {} : { toolCallActions }),
      beforeToolCall: ({ toolCall }) => {
        const { text } = toolCall.input as { text: string };
        events.push(`handler ${text}`);
        return text.startsWith('secret') ? InterventionActions.deny('No secrets.') : InterventionActions.proceed();
      },
    }),
  ];

describe('decidesInModelLayer (through interventions.generateText)', () => {
  const secretAndTwo = [toolCall('c1', 'echo', { text: 'secret-1' }), toolCall('c2', 'echo', { text: 'two' })];

  it("should decide each call at the SDK's approval point when every handler declares it never transforms: after the tool's onInputAvailable, as raw asks its own toolApproval", async () => {
    const raw = await generated('raw', secretAndTwo);
    const wrapped = await generated(noting(['deny']), secretAndTwo);

    expect(raw.events).toEqual(['onInputAvailable secret-1', 'onInputAvailable two']);
    expect(wrapped.events).toEqual(['onInputAvailable secret-1', 'handler secret-1', 'onInputAvailable two', 'handler two']);
    expect(wrapped.ran).toEqual(['two']);
    const results = wrapped.calls[1]?.prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(results).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        output: expect.objectContaining({ type: 'execution-denied', reason: expect.stringContaining('No secrets.') }),
      }),
      expect.objectContaining({ toolCallId: 'c2', output: { type: 'text', value: 'two' } }),
    ]);
  });

  it('should decide the calls in the model layer when a handler may transform: each before the SDK parses it', async () => {
    const { events, ran } = await generated(noting(), secretAndTwo);

    expect(events).toEqual(['handler secret-1', 'handler two', 'onInputAvailable secret-1', 'onInputAvailable two']);
    expect(ran).toEqual(['two']);
  });

  it('should give a call repeating an id an id of its own, so each is decided alone and the one allowed runs', async () => {
    const first = [toolCall('c1', 'echo', { text: 'secret-1' }), toolCall('c1', 'echo', { text: 'two' })];

    const { ran, result } = await generated(noting(['deny']), first);

    expect(ran).toEqual(['two']);
    expect(result.steps[0]?.toolCalls.map((call) => call.toolCallId)).toEqual(['c1', 'c1-2']);
    expect(result.steps[0]?.toolResults.map((toolResult) => [toolResult.toolCallId, toolResult.output])).toEqual([['c1-2', 'two']]);
  });
});

describe('toolCallActions (registering a handler)', () => {
  it('should refuse a list with an action that is not a tool call action, naming the handler', () => {
    const handler = { name: 'typo', toolCallActions: ['deny', 'aprove'], beforeToolCall: () => InterventionActions.proceed() };

    expect(() => createInterventions({ handlers: [handler as never] })).toThrow(InvalidHandlerError);
    expect(() => createInterventions({ handlers: [handler as never] })).toThrow(/"typo" has invalid toolCallActions/);
  });
});
