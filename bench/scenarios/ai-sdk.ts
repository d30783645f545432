/**
 * The AI SDK side: raw `generateText` / `streamText`, and the same calls
 * through `interventions.generateText` / `streamText` with K no-op handlers
 * or K no-op hook sets.
 *
 * The scripted model is a `MockLanguageModelV4` from 'ai/test', new for every
 * run (it records its calls): calls 1..N-1 answer with one call of the tool
 * `echo`, call N answers with the text "done".
 */
import { generateText, isStepCount, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createInterventions, type HooksConfig, InterventionActions, InterventionHandler, type Interventions } from 'ai-interventions';
import { z } from 'zod';
import type { Workload } from '../lib/measure.ts';
import type { FirstChunkImpl, Impl, Mode } from '../lib/scenario.ts';

// the provider types, from the mock itself (bench/node_modules may hoist another @ai-sdk/provider major)
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4Content = LanguageModelV4GenerateResult['content'][number];
type LanguageModelV4StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer PART> ? PART : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function response(step: number, steps: number, text: string): LanguageModelV4GenerateResult {
  const content: LanguageModelV4Content[] =
    step < steps
      ? [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: 'echo', input: JSON.stringify({ text: `step ${step}` }) }]
      : [{ type: 'text', text }];
  return {
    content,
    finishReason: step < steps ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

function streamPartsOf(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const part of result.content) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: 't0' });
      for (const word of part.text.match(/\S+\s*/g) ?? []) parts.push({ type: 'text-delta', id: 't0', delta: word });
      parts.push({ type: 'text-end', id: 't0' });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return parts;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A model scripted for one run of `steps` steps. `paceMs`: text deltas after
 * the first arrive this many ms apart (a model still generating); otherwise
 * every part is available at once.
 */
export function scriptedModel(steps: number, options: { text?: string; paceMs?: number } = {}) {
  const text = options.text ?? 'done';
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => response(++calls, steps, text),
    doStream: async () => {
      const parts = streamPartsOf(response(++calls, steps, text));
      const pace = options.paceMs;
      if (pace === undefined) {
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      let index = 0;
      let deltas = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            const part = parts[index++]!;
            if (part.type === 'text-delta' && deltas++ > 0) await sleep(pace);
            controller.enqueue(part);
            if (index === parts.length) controller.close();
          },
        }),
      };
    },
  });
}

/** A no-op handler defining every lifecycle method but `afterModelCall`. */
class StreamingNoopHandler extends InterventionHandler {
  readonly name: string;
  constructor(name: string) {
    super();
    this.name = name;
  }
  override beforeInvocation() {
    return InterventionActions.proceed();
  }
  override beforeModelCall() {
    return InterventionActions.proceed();
  }
  override beforeToolCall() {
    return InterventionActions.proceed();
  }
  override afterToolCall() {
    return InterventionActions.proceed();
  }
}

/** The benchmark's handler: every lifecycle method, each returning proceed(). */
class NoopHandler extends StreamingNoopHandler {
  override afterModelCall() {
    return InterventionActions.proceed();
  }
}

/**
 * The runtime of a scenario: K no-op handlers, or K of each of four no-op
 * hooks. `handlers-streaming`: K handlers without `afterModelCall` (nothing
 * then needs a whole step before its text may stream).
 */
export function runtimeFor(impl: FirstChunkImpl, k: number): Interventions | undefined {
  if (impl === 'raw') return undefined;
  if (impl === 'handlers' || impl === 'handlers-streaming') {
    const Handler = impl === 'handlers' ? NoopHandler : StreamingNoopHandler;
    return createInterventions({ handlers: Array.from({ length: k }, (_, i) => new Handler(`noop-${i}`)) });
  }
  const hooks: HooksConfig = {
    preRequest: Array.from({ length: k }, () => () => undefined),
    onResponse: Array.from({ length: k }, () => () => undefined),
    preToolCall: Array.from({ length: k }, () => () => undefined),
    onToolCallResult: Array.from({ length: k }, () => () => undefined),
  };
  return createInterventions({ hooks });
}

export interface AiSdkRun {
  readonly workload: Workload;
  /** What a run records: one more run, after the measured ones, its records read (records are built when read). */
  readonly decisionsPerRun: () => Promise<number>;
}

export function aiSdkWorkload(impl: Impl, mode: Mode, k: number, steps: number): AiSdkRun {
  let executed = 0;
  const tools = {
    echo: tool({
      description: 'Echo the text back.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        executed++;
        return text;
      },
    }),
  };
  const runtime = runtimeFor(impl, k);
  const generate = runtime?.generateText ?? generateText;
  const stream = runtime?.streamText ?? streamText;
  // a measured run keeps nothing of itself, as a production request drops its result: holding a run's report
  // until the next run would keep its records (and what they hold) alive across the next run's garbage
  // collections; one more run is checked for its records once the runs are measured (records are built when
  // read, and a production run reads none)
  type Report = { decisions: readonly unknown[] } | undefined;

  const check = (stepCount: number, text: string, executedThisRun: number): void => {
    if (stepCount !== steps || text !== 'done' || executedThisRun !== steps - 1) {
      throw new Error(`run did not follow the script: ${stepCount} steps, text ${JSON.stringify(text)}, ${executedThisRun} tool calls`);
    }
  };

  const once = async (): Promise<Report> => {
    const before = executed;
    const options = { model: scriptedModel(steps), tools, stopWhen: isStepCount(steps), prompt: 'Echo every step.' };
    if (mode === 'generate') {
      const result = await generate(options);
      check(result.steps.length, result.text, executed - before);
      return (result as { interventions?: Report }).interventions;
    }
    const result = stream(options);
    for await (const part of result.fullStream) void part;
    check((await result.steps).length, await result.text, executed - before);
    return (result as { interventions?: Report }).interventions;
  };
  const run = async (): Promise<void> => {
    await once();
  };
  return { workload: { steps, run }, decisionsPerRun: async () => (await once())?.decisions.length ?? 0 };
}

/**
 * Time to the first text chunk of a `streamText` call, in µs: from the call
 * until `fullStream` yields the first `text-delta` (the rest is then drained).
 * `loop`: the N-step tool loop with every part available at once (the text
 * comes in the last step). `paced`: one step, the model streams ten words,
 * the first at once and the others 2 ms apart.
 */
export function firstChunkWorkload(impl: FirstChunkImpl, k: number, shape: 'loop' | 'paced', steps: number) {
  const tools = {
    echo: tool({ description: 'Echo the text back.', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
  };
  const runtime = runtimeFor(impl, k);
  const stream = runtime?.streamText ?? streamText;
  const text = shape === 'paced' ? 'one two three four five six seven eight nine ten' : 'done';
  const runSteps = shape === 'paced' ? 1 : steps;
  return async (): Promise<number> => {
    const model = scriptedModel(runSteps, { text, ...(shape === 'paced' ? { paceMs: 2 } : {}) });
    const t0 = performance.now();
    const result = stream({ model, tools, stopWhen: isStepCount(runSteps), prompt: 'Echo every step.' });
    let first = Number.NaN;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta' && Number.isNaN(first)) first = performance.now() - t0;
    }
    if ((await result.text) !== text || Number.isNaN(first)) throw new Error('stream did not follow the script');
    return first * 1e3;
  };
}
