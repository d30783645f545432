/**
 * Faults, through `interventions.generateText` and `interventions.streamText`:
 * every fault ends with the documented typed error or with a tool result the
 * model can recover from, fires exactly one of `onChatDone` / `onChatError` /
 * `onChatAbort` (the right one), and leaves nothing pending (no timer left
 * behind, every promise settled).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallAction,
  type BeforeToolCallEvent,
  createInterventions,
  defineHandler,
  HandlerTimeoutError,
  type HooksConfig,
  InterventionActions,
  InterventionHandlerError,
  type InterventionHandlerLike,
  type Interventions,
  type OnError,
} from '../../src/index.ts';
import { recordingTools } from '../helpers/recording-tools.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------- harness

const MODES = ['generateText', 'streamText'] as const;
type Mode = (typeof MODES)[number];
type Options = Parameters<Interventions['generateText']>[0];

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

/** Rejects when `promise` has not settled after `ms` (a hang); the timer is always cleared. */
async function withinDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

type End = { readonly type: 'done' | 'error' | 'abort'; readonly value: unknown };

/** The end-of-run observers, recorded; `ended()` waits for the first and a moment for any other. */
function endObservers() {
  const events: End[] = [];
  let first!: () => void;
  const fired = new Promise<void>((resolve) => {
    first = resolve;
  });
  const push = (type: End['type'], value: unknown) => {
    events.push({ type, value });
    first();
  };
  const hooks: HooksConfig = {
    onChatDone: ({ response }) => push('done', response),
    onChatError: ({ error }) => push('error', error),
    onChatAbort: ({ reason }) => push('abort', reason),
  };
  return {
    events,
    hooks,
    async ended(): Promise<readonly End[]> {
      await withinDeadline(fired, 2_000, 'the end-of-run observers');
      // a second observer would fire right after the first: give it the chance
      await delay(25);
      return events;
    },
  };
}

interface Outcome {
  readonly settled: { readonly ok: true } | { readonly ok: false; readonly error: unknown };
  /** streamText: the part types of the full stream, in order. */
  readonly parts: readonly string[];
  /** streamText: the errors of `error` parts, of `onError`, and one the stream threw. */
  readonly streamErrors: readonly unknown[];
  /** The final text (generateText) or the streamed text deltas (streamText). */
  readonly text?: string;
}

/**
 * One call through either wrapper. generateText settles like a promise; a
 * stream is consumed to its end, and counts as failed when it carries an
 * `error` or `abort` part (the SDK puts the abort reason in the part as a
 * string) or throws.
 */
async function drive(interventions: Interventions, mode: Mode, options: Options): Promise<Outcome> {
  if (mode === 'generateText') {
    return withinDeadline(
      interventions.generateText(options).then(
        (result): Outcome => ({ settled: { ok: true }, parts: [], streamErrors: [], text: result.text }),
        (error: unknown): Outcome => ({ settled: { ok: false, error }, parts: [], streamErrors: [] }),
      ),
      5_000,
      'generateText',
    );
  }
  const streamErrors: unknown[] = [];
  const parts: string[] = [];
  let abortReason: unknown;
  let aborted = false;
  const result = interventions.streamText({
    ...(options as Parameters<Interventions['streamText']>[0]),
    onError: ({ error }: { error: unknown }) => {
      streamErrors.push(error);
    },
  });
  let streamed = '';
  await withinDeadline(
    (async () => {
      try {
        for await (const part of result.fullStream) {
          parts.push(part.type);
          if (part.type === 'text-delta') streamed += part.text;
          if (part.type === 'error') streamErrors.push(part.error);
          if (part.type === 'abort') {
            aborted = true;
            abortReason = part.reason;
          }
        }
      } catch (error) {
        // the stream itself errored (as the SDK does when the provider's ReadableStream errors)
        streamErrors.push(error);
      }
    })(),
    5_000,
    'streamText',
  );
  if (streamErrors.length > 0) return { settled: { ok: false, error: streamErrors[0] }, parts, streamErrors, text: streamed };
  if (aborted) return { settled: { ok: false, error: abortReason }, parts, streamErrors, text: streamed };
  return { settled: { ok: true }, parts, streamErrors, text: streamed };
}

const errorOf = (outcome: Outcome): unknown => (outcome.settled.ok ? undefined : outcome.settled.error);

/** How the caller sees an abort: generateText rejects with the reason, a stream's abort part carries it as text. */
const callerSees = (mode: Mode, reason: Error): unknown => (mode === 'generateText' ? reason : String(reason));

/** A model that honours its abort signal the way a real provider does (fetch rejects once aborted). */
function abortAware<MODEL extends ReturnType<typeof scriptedModel>>(model: MODEL): MODEL {
  const { doGenerate, doStream } = model;
  model.doGenerate = async (options) => {
    options.abortSignal?.throwIfAborted();
    return doGenerate(options);
  };
  model.doStream = async (options) => {
    options.abortSignal?.throwIfAborted();
    return doStream(options);
  };
  return model;
}

function handler(
  name: string,
  beforeToolCall: (event: BeforeToolCallEvent) => BeforeToolCallAction | PromiseLike<BeforeToolCallAction>,
  options: { onError?: OnError; timeoutMs?: number } = {},
): InterventionHandlerLike {
  return defineHandler({ name, ...options, beforeToolCall: beforeToolCall as never });
}

const outputOf = (model: { calls: LanguageModelV4CallOptions[] }, call: number, id: string) =>
  toolResultsSent(model, call)[id] as { type: string; value?: unknown; reason?: string } | undefined;

// ---------------------------------------------------------------- handlers

const NON_ERRORS: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ['a string', () => 'policy service said no', 'policy service said no'],
  ['an object', () => ({ code: 'E_POLICY', detail: 'nope' }), '{"code":"E_POLICY","detail":"nope"}'],
  ['null', () => null, 'null'],
  ['undefined', () => undefined, 'undefined'],
  ['a number', () => 42, '42'],
];

describe.each(MODES)('handler faults (%s)', (mode) => {
  it.each(NON_ERRORS)('should end the run with an InterventionHandlerError when a handler throws %s', async (_, make, described) => {
    const timersBefore = timers();
    const thrown = make();
    const life = endObservers();
    const { ran, tools } = recordingTools();
    const interventions = createInterventions({
      handlers: [
        handler('thrower', () => {
          throw thrown;
        }),
      ],
      hooks: life.hooks,
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('never'))));
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

    const error = errorOf(outcome);
    expect(InterventionHandlerError.isInstance(error)).toBe(true);
    expect((error as InterventionHandlerError).handlerName).toBe('thrower');
    expect((error as InterventionHandlerError).lifecycle).toBe('beforeToolCall');
    expect((error as Error).cause).toBe(thrown);
    expect((error as Error).message).toContain(described);
    expect(await life.ended()).toEqual([{ type: 'error', value: error }]);
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it.each(NON_ERRORS)('should deny the call (fail closed) when a handler with onError "deny" throws %s', async (_, make) => {
    const timersBefore = timers();
    const life = endObservers();
    const { ran, tools } = recordingTools();
    const interventions = createInterventions({
      handlers: [
        handler(
          'strict',
          () => {
            throw make();
          },
          { onError: 'deny' },
        ),
      ],
      hooks: life.hooks,
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok'))));
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

    expect(outcome.settled).toEqual({ ok: true });
    expect(ran).toEqual([]);
    expect(outputOf(model, 1, 'c1')).toEqual({
      type: 'execution-denied',
      reason:
        'The call to "t" was blocked and was not executed. Reason: The "strict" check failed, so this was blocked (fail closed).\n' +
        'Do not retry this call as it is; continue without it, or explain to the user why it cannot be done.',
    });
    const ends = await life.ended();
    expect(ends.map((end) => end.type)).toEqual(['done']);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('should end the run with an InterventionHandlerError when a handler rejects, and proceed with onError "proceed"', async () => {
    const cause = new Error('policy service unreachable');
    for (const onError of ['throw', 'proceed'] as const) {
      const timersBefore = timers();
      const life = endObservers();
      const { ran, tools } = recordingTools();
      const interventions = createInterventions({
        handlers: [handler('remote-policy', () => Promise.reject(cause), { onError })],
        hooks: life.hooks,
      });
      const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok'))));
      const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
      const ends = await life.ended();
      if (onError === 'throw') {
        const error = errorOf(outcome);
        expect(InterventionHandlerError.isInstance(error)).toBe(true);
        expect((error as Error).cause).toBe(cause);
        expect(ends).toEqual([{ type: 'error', value: error }]);
        expect(ran).toEqual([]);
      } else {
        expect(outcome.settled).toEqual({ ok: true });
        expect(ends.map((end) => end.type)).toEqual(['done']);
        expect(ran).toEqual(['x']);
        expect(outputOf(model, 1, 'c1')).toEqual({ type: 'text', value: 'ran x' });
      }
      expect(timers()).toBeLessThanOrEqual(timersBefore);
    }
  });

  it('should end the run with a HandlerTimeoutError when a handler never settles within its timeoutMs, clearing the timer', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const { ran, tools } = recordingTools();
    const interventions = createInterventions({
      handlers: [handler('stuck', () => new Promise<never>(() => {}), { timeoutMs: 30 })],
      hooks: life.hooks,
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('never'))));
    const startedAt = performance.now();
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(25);

    const error = errorOf(outcome);
    expect(HandlerTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ handlerName: 'stuck', lifecycle: 'beforeToolCall', timeoutMs: 30 });
    expect(await life.ended()).toEqual([{ type: 'error', value: error }]);
    expect(ran).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('should treat a timed-out handler with onError "proceed" as thrown and run the tool; a settled handler leaves no timer', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const { ran, tools } = recordingTools();
    const interventions = createInterventions({
      handlers: [
        handler('stuck', () => new Promise<never>(() => {}), { timeoutMs: 20, onError: 'proceed' }),
        // settles long before its (long) timeout: that timer must be cleared too
        handler('quick', async () => InterventionActions.proceed(), { timeoutMs: 60_000 }),
      ],
      hooks: life.hooks,
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok'))));
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(outcome.settled).toEqual({ ok: true });
    expect(ran).toEqual(['x']);
    expect((await life.ended()).map((end) => end.type)).toEqual(['done']);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it.each([
    ['ignores its signal', 'throw'],
    ['ignores its signal', 'proceed'],
    ['rejects with its own AbortError, as fetch does', 'throw'],
    ['rejects with its own AbortError, as fetch does', 'proceed'],
    ['rejects with its own AbortError, as fetch does', 'deny'],
  ] as const)(
    'should end the run as an abort (onChatAbort, not onChatError) when a pending handler that %s (onError "%s") is aborted by the caller',
    async (behaviour, onError) => {
      const timersBefore = timers();
      const life = endObservers();
      const { ran, tools } = recordingTools();
      const controller = new AbortController();
      const reason = new Error('the user pressed stop');
      let handlerSignalFired = false;
      let started!: () => void;
      const handlerStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const interventions = createInterventions({
        handlers: [
          handler(
            'slow-review',
            (event) => {
              started();
              return new Promise<never>((_, reject) => {
                event.abortSignal?.addEventListener('abort', () => {
                  handlerSignalFired = true;
                  if (behaviour !== 'ignores its signal') reject(new DOMException('This operation was aborted', 'AbortError'));
                });
              });
            },
            { onError },
          ),
        ],
        hooks: life.hooks,
      });
      const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('never'))));
      void handlerStarted.then(() => setTimeout(() => controller.abort(reason), 5));
      const outcome = await drive(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
        abortSignal: controller.signal,
      });

      expect(handlerSignalFired).toBe(true);
      expect(errorOf(outcome)).toBe(callerSees(mode, reason));
      expect(ran).toEqual([]);
      expect(model.calls).toHaveLength(1);
      expect(await life.ended()).toEqual([{ type: 'abort', value: reason }]);
      // a user abort is not an error of the stream
      expect(outcome.streamErrors).toEqual([]);
      expect(timers()).toBeLessThanOrEqual(timersBefore);
    },
  );

  it('should end the run with an InterventionHandlerError when a transform throws inside apply, and discard the draft', async () => {
    const cause = new TypeError("Cannot read properties of undefined (reading 'replace')");
    for (const onError of ['throw', 'deny'] as const) {
      const timersBefore = timers();
      const life = endObservers();
      const { ran, tools } = recordingTools();
      const interventions = createInterventions({
        handlers: [
          handler(
            'redactor',
            () =>
              InterventionActions.transform<BeforeToolCallEvent>((draft) => {
                (draft.toolCall.input as { tag: string }).tag = 'half-done';
                throw cause;
              }),
            { onError },
          ),
        ],
        hooks: life.hooks,
      });
      const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok'))));
      const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });
      const ends = await life.ended();
      expect(ran).toEqual([]);
      if (onError === 'throw') {
        const error = errorOf(outcome);
        expect(InterventionHandlerError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ handlerName: 'redactor', lifecycle: 'beforeToolCall', cause });
        expect(ends).toEqual([{ type: 'error', value: error }]);
      } else {
        expect(outcome.settled).toEqual({ ok: true });
        expect(ends.map((end) => end.type)).toEqual(['done']);
        expect(outputOf(model, 1, 'c1')?.type).toBe('execution-denied');
        // the half-applied draft never reached the history
        expect(model.calls[1]?.prompt[1]).toMatchObject({ content: [{ type: 'tool-call', input: { tag: 'x' } }] });
      }
      expect(timers()).toBeLessThanOrEqual(timersBefore);
    }
  });
});

// ---------------------------------------------------------------- tools

describe.each(MODES)('tool faults (%s)', (mode) => {
  it.each<readonly [string, () => unknown, string]>([
    ['an Error', () => new Error('disk full'), 'disk full'],
    ['a string', () => 'disk full (string)', 'disk full (string)'],
  ])('should give the model a recoverable error result when a tool throws %s', async (_, make, message) => {
    const timersBefore = timers();
    const life = endObservers();
    const interventions = createInterventions({
      handlers: [handler('allow', () => InterventionActions.proceed())],
      hooks: life.hooks,
    });
    const tools = {
      write: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async (): Promise<string> => {
          throw make();
        },
      }),
    };
    const model = abortAware(scriptedModel(step(toolCall('c1', 'write', { path: '/tmp/a' })), step(text('could not write'))));
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'write' });
    expect(outcome.settled).toEqual({ ok: true });
    expect(outcome.text).toBe('could not write');
    const output = outputOf(model, 1, 'c1');
    expect(output?.type).toBe('error-text');
    expect(String(output?.value)).toContain(message);
    expect((await life.ended()).map((end) => end.type)).toEqual(['done']);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('should fire the abort signal passed to execute when the caller aborts a hanging tool, and end as an abort', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const controller = new AbortController();
    const reason = new Error('cancelled');
    let executeSignalFired = false;
    let executeSettled = false;
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tools = {
      crawl: tool({
        inputSchema: z.object({ url: z.string() }),
        execute: (_, { abortSignal }) => {
          started();
          return new Promise<string>((_resolve, reject) => {
            abortSignal?.addEventListener('abort', () => {
              executeSignalFired = true;
              reject(abortSignal.reason);
            });
          }).finally(() => {
            executeSettled = true;
          });
        },
      }),
    };
    const interventions = createInterventions({
      handlers: [handler('allow', async () => InterventionActions.proceed())],
      hooks: { ...life.hooks, onToolCallError: () => undefined, onToolCallResult: () => undefined },
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 'crawl', { url: 'https://example.com' })), step(text('never'))));
    void toolStarted.then(() => setTimeout(() => controller.abort(reason), 5));
    const outcome = await drive(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: 'crawl',
      abortSignal: controller.signal,
    });
    expect(executeSignalFired).toBe(true);
    expect(executeSettled).toBe(true);
    expect(errorOf(outcome)).toBe(callerSees(mode, reason));
    expect(model.calls).toHaveLength(1);
    expect(await life.ended()).toEqual([{ type: 'abort', value: reason }]);
    expect(outcome.streamErrors).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('should pass a huge (5 MB) tool output through hooks and handlers to the model intact', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const huge = `${'0123456789abcdef'.repeat((5 * 1024 * 1024) / 16 - 1)}<end of output>`;
    const seen: number[] = [];
    const interventions = createInterventions({
      handlers: [
        handler('allow', () => InterventionActions.proceed()),
        defineHandler({
          name: 'measure',
          afterToolCall: (event) => {
            seen.push(String(event.result).length);
            return InterventionActions.proceed();
          },
        }),
      ],
      hooks: { ...life.hooks, onToolCallResult: ({ result }) => void seen.push(String(result).length) },
    });
    const tools = { dump: tool({ inputSchema: z.object({}), execute: async () => huge }) };
    const model = abortAware(scriptedModel(step(toolCall('c1', 'dump', {})), step(text('that is a lot'))));
    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'dump' });
    expect(outcome.settled).toEqual({ ok: true });
    expect(seen).toEqual([huge.length, huge.length]);
    const output = outputOf(model, 1, 'c1');
    expect(output?.type).toBe('text');
    expect((output?.value as string).length).toBe(huge.length);
    expect(output?.value === huge).toBe(true);
    expect((await life.ended()).map((end) => end.type)).toEqual(['done']);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});

// ---------------------------------------------------------------- the provider

/** A model whose stream emits `parts`, then fails (an `error` part, or the ReadableStream errors). */
function failingStreamModel(how: 'error-part' | 'stream-error', error: Error, toolCalls = false) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = scriptedModel();
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'Hello ' },
    { type: 'text-delta', id: 't0', delta: 'wor' },
    ...(toolCalls ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: '{"tag":"x"}' } as const] : []),
  ];
  model.doStream = async (options) => {
    calls.push(options);
    options.abortSignal?.throwIfAborted();
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts.shift();
          if (part !== undefined) {
            controller.enqueue(part);
            return;
          }
          await delay(1);
          if (how === 'error-part') {
            controller.enqueue({ type: 'error', error });
            controller.close();
          } else {
            controller.error(error);
          }
        },
      }),
    };
  };
  model.doGenerate = async (options) => {
    calls.push(options);
    await delay(1);
    throw error;
  };
  return Object.assign(model, { providerCalls: calls });
}

type Setup = Pick<Parameters<typeof createInterventions>[0] & object, 'handlers' | 'hooks'>;
const PROVIDER_SETUPS = {
  'only the end observers': (): Setup => ({ handlers: [], hooks: {} }),
  'no hook on the response': (): Setup => ({
    handlers: [],
    hooks: { preRequest: () => undefined },
  }),
  'tool calls held for beforeToolCall handlers': () => ({
    handlers: [handler('allow', () => InterventionActions.proceed())],
    hooks: {},
  }),
  'the whole response held for onResponse': () => ({
    handlers: [],
    hooks: { onResponse: () => undefined },
  }),
} as const;

describe.each(Object.keys(PROVIDER_SETUPS) as Array<keyof typeof PROVIDER_SETUPS>)('provider faults (%s)', (setupName) => {
  it.each(['error-part', 'stream-error'] as const)(
    'should end streamText with the provider error, once, when the stream fails mid-way (%s)',
    async (how) => {
      const timersBefore = timers();
      const life = endObservers();
      const providerError = new Error(`provider stream broke (${how})`);
      const setup = PROVIDER_SETUPS[setupName]();
      const { ran, tools } = recordingTools();
      const interventions = createInterventions({
        handlers: setup.handlers,
        hooks: { ...setup.hooks, ...life.hooks },
      });
      const model = failingStreamModel(how, providerError, true);
      const outcome = await drive(interventions, 'streamText', {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'hi',
        maxRetries: 0,
      });
      expect(errorOf(outcome)).toBe(providerError);
      expect(outcome.streamErrors.every((error) => error === providerError)).toBe(true);
      expect(await life.ended()).toEqual([{ type: 'error', value: providerError }]);
      // a failed turn runs none of its tool calls, and the run does not go on
      expect(ran).toEqual([]);
      expect(model.providerCalls).toHaveLength(1);
      expect(timers()).toBeLessThanOrEqual(timersBefore);
    },
  );

  it('should reject generateText with the provider error, once, when the provider fails mid-call', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const providerError = new Error('provider down');
    const setup = PROVIDER_SETUPS[setupName]();
    const interventions = createInterventions({ handlers: setup.handlers, hooks: { ...setup.hooks, ...life.hooks } });
    const model = failingStreamModel('error-part', providerError);
    const outcome = await drive(interventions, 'generateText', { model, prompt: 'hi', maxRetries: 0 });
    expect(errorOf(outcome)).toBe(providerError);
    expect(await life.ended()).toEqual([{ type: 'error', value: providerError }]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});

// ---------------------------------------------------------------- aborts at every phase

type Phase = 'before the call' | 'during the model call' | 'during a handler' | 'during a tool' | 'between steps';
const PHASES: readonly Phase[] = ['before the call', 'during the model call', 'during a handler', 'during a tool', 'between steps'];

describe.each(MODES)('an abort at every phase (%s)', (mode) => {
  it.each(PHASES)('should end as an abort %s: onChatAbort once, the reason to the caller, nothing pending', async (phase) => {
    const timersBefore = timers();
    const life = endObservers();
    const controller = new AbortController();
    const reason = new Error(`stopped ${phase}`);
    const abortSoon = () => void setTimeout(() => controller.abort(reason), 5);
    const pending: Array<{ readonly what: string; settled: boolean }> = [];
    /** A promise that settles when the signal aborts (what a well-behaved slow operation does). */
    const untilAborted = (what: string, signal: AbortSignal | undefined) => {
      const entry = { what, settled: false };
      pending.push(entry);
      return new Promise<never>((_, reject) => {
        if (signal === undefined) return;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }).finally(() => {
        entry.settled = true;
      });
    };

    const ran: string[] = [];
    const tools: ToolSet = {
      t: tool({
        inputSchema: z.object({ tag: z.string() }),
        execute: async ({ tag }, { abortSignal }) => {
          ran.push(tag);
          if (phase === 'during a tool') {
            abortSoon();
            await untilAborted('tool', abortSignal);
          }
          return `ran ${tag}`;
        },
      }),
    };
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('done')), step(text('extra'))));
    if (phase === 'during the model call') {
      const { doGenerate, doStream } = model;
      model.doGenerate = async (options) => {
        abortSoon();
        await untilAborted('model call', options.abortSignal);
        return doGenerate(options);
      };
      model.doStream = async (options) => {
        abortSoon();
        await untilAborted('model call', options.abortSignal);
        return doStream(options);
      };
    }
    const interventions = createInterventions({
      handlers: [
        handler('review', async (event) => {
          if (phase === 'during a handler') {
            abortSoon();
            await untilAborted('handler', event.abortSignal);
          }
          return InterventionActions.proceed();
        }),
      ],
      hooks: life.hooks,
    });
    if (phase === 'before the call') controller.abort(reason);
    const outcome = await drive(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
      abortSignal: controller.signal,
      maxRetries: 0,
      prepareStep: ({ stepNumber }) => {
        if (phase === 'between steps' && stepNumber === 1) controller.abort(reason);
        return undefined;
      },
    });

    expect(errorOf(outcome)).toBe(callerSees(mode, reason));
    expect(await life.ended()).toEqual([{ type: 'abort', value: reason }]);
    // a user abort is not an error of the stream: it ends with its abort part
    expect(outcome.streamErrors).toEqual([]);
    if (mode === 'streamText') expect(outcome.parts.at(-1)).toBe('abort');
    // the tool ran only where the abort came after it
    expect(ran).toEqual(phase === 'during a tool' || phase === 'between steps' ? ['x'] : []);
    for (const entry of pending) expect(entry, `${entry.what} settled`).toMatchObject({ settled: true });
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});

// ---------------------------------------------------------------- runs that never end on their own

describe.each(MODES)('runs that would never end (%s)', (mode) => {
  it('should end as an abort when the caller aborts while a gateToolCalls hook is pending (a human never answering)', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const controller = new AbortController();
    const reason = new Error('the user left');
    const { ran, tools } = recordingTools();
    let gated!: () => void;
    const gateStarted = new Promise<void>((resolve) => {
      gated = resolve;
    });
    const interventions = createInterventions({
      // a gate that waits for someone who never comes, and ignores the signal
      hooks: { ...life.hooks, gateToolCalls: () => (gated(), new Promise<never>(() => {})) },
    });
    void gateStarted.then(() => setTimeout(() => controller.abort(reason), 5));
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('never'))));

    const outcome = await drive(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
      abortSignal: controller.signal,
    });

    expect(errorOf(outcome)).toBe(callerSees(mode, reason));
    expect(await life.ended()).toEqual([{ type: 'abort', value: reason }]);
    expect(outcome.streamErrors).toEqual([]);
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('should end as an abort when the caller aborts while a tool that ignores its signal hangs', async () => {
    const timersBefore = timers();
    const life = endObservers();
    const controller = new AbortController();
    const reason = new Error('cancelled');
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tools = {
      // never settles, whatever the signal says
      stuck: tool({ inputSchema: z.object({}), execute: () => (started(), new Promise<string>(() => {})) }),
    };
    const interventions = createInterventions({
      handlers: [handler('allow', () => InterventionActions.proceed())],
      hooks: { ...life.hooks, onToolCallResult: () => undefined },
    });
    void toolStarted.then(() => setTimeout(() => controller.abort(reason), 5));
    const model = abortAware(scriptedModel(step(toolCall('c1', 'stuck', {})), step(text('never'))));
    const startedAt = performance.now();

    const outcome = await drive(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
      abortSignal: controller.signal,
    });

    expect(errorOf(outcome)).toBe(callerSees(mode, reason));
    expect(await life.ended()).toEqual([{ type: 'abort', value: reason }]);
    expect(outcome.streamErrors).toEqual([]);
    expect(model.calls).toHaveLength(1);
    // generateText ends a second after the SDK should have; a stream ends at the abort
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it("should end with a HandlerTimeoutError when a handler without timeoutMs never settles (the runtime's handlerTimeoutMs)", async () => {
    const timersBefore = timers();
    const life = endObservers();
    const { ran, tools } = recordingTools();
    const interventions = createInterventions({
      handlerTimeoutMs: 40,
      handlers: [handler('forgetful', () => new Promise<never>(() => {}))],
      hooks: life.hooks,
    });
    const model = abortAware(scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('never'))));

    const outcome = await drive(interventions, mode, { model, tools, stopWhen: isStepCount(3), prompt: 'go' });

    const error = errorOf(outcome);
    expect(HandlerTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ handlerName: 'forgetful', lifecycle: 'beforeToolCall', timeoutMs: 40 });
    expect(await life.ended()).toEqual([{ type: 'error', value: error }]);
    expect(ran).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});
