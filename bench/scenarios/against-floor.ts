/**
 * ai-interventions against the hand-written floor (floor.ts), side by side:
 * the same scripted N-step tool loop as ai-sdk.ts, run raw, through the
 * floor and through `interventions.generateText` / `streamText`, with K
 * handlers defining one mix of no-op lifecycle methods. The floor and the
 * library call the very same handler objects.
 *
 * And the time from a streamed step's first tool call to that tool's
 * `execute`: raw, floor and library with `beforeToolCall` handlers only.
 */
import { generateText, isStepCount, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createInterventions, InterventionActions, InterventionHandler, type ToolCallActionType } from 'ai-interventions';
import { z } from 'zod';
import type { Workload } from '../lib/measure.ts';
import { callsPerHandler, type FloorImpl, type LatencyImpl, type Mix, type Mode } from '../lib/scenario.ts';
import { scriptedModel } from './ai-sdk.ts';
import { type FloorHandler, floorApproval, floorMiddleware, floorModel, floorTools } from './floor.ts';

type StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer PART> ? PART : never;

/** Every lifecycle method call of every benchmark handler (checked against the script after each run). */
let methodCalls = 0;

/** `beforeToolCall` only. */
class BeforeToolHandler extends InterventionHandler {
  readonly name: string;
  /** It only ever proceeds, and says so: a streamed call is decided as it comes, not held (the floor ignores this). */
  readonly toolCallActions: readonly ToolCallActionType[] = [];
  constructor(name: string) {
    super();
    this.name = name;
  }
  override beforeToolCall() {
    methodCalls++;
    return InterventionActions.proceed();
  }
}

/** All four but `afterModelCall`: nothing needs a streamed step whole. */
class NoAfterModelHandler extends BeforeToolHandler {
  override beforeModelCall() {
    methodCalls++;
    return InterventionActions.proceed();
  }
  override afterToolCall() {
    methodCalls++;
    return InterventionActions.proceed();
  }
}

/** `beforeModelCall`, `afterModelCall`, `beforeToolCall`, `afterToolCall`. */
class AllFourHandler extends NoAfterModelHandler {
  override afterModelCall() {
    methodCalls++;
    return InterventionActions.proceed();
  }
}

const HANDLER_OF_MIX = { 'all-four': AllFourHandler, 'no-after-model': NoAfterModelHandler, 'before-tool': BeforeToolHandler } as const;

export function handlersOf(mix: Mix, k: number): InterventionHandler[] {
  const Handler = HANDLER_OF_MIX[mix];
  return Array.from({ length: k }, (_, i) => new Handler(`noop-${i}`));
}

/** The handler objects as the floor calls them (their methods take no argument, so any event fits). */
const asFloorHandlers = (handlers: readonly InterventionHandler[]): readonly FloorHandler[] => handlers as readonly FloorHandler[];

function echoTool(onExecute: (toolCallId: string) => void) {
  return tool({
    description: 'Echo the text back.',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }, { toolCallId }) => {
      onExecute(toolCallId);
      return text;
    },
  });
}

/** The calls a run makes: `generateText` / `streamText` of the SDK, the floor's model and tools, or the library's. */
function callsOf(impl: FloorImpl, mix: Mix, k: number, onExecute: (toolCallId: string) => void, size = 1) {
  // `echo`, then `echo1`, `echo2`… when a request gives more tools
  const tools: Record<string, ReturnType<typeof echoTool>> = { echo: echoTool(onExecute) };
  for (let index = 1; index < size; index++) tools[`echo${index}`] = echoTool(onExecute);
  if (impl === 'raw') return { generate: generateText, stream: streamText, tools, wrap: (model: MockLanguageModelV4) => model };
  const handlers = handlersOf(mix, k);
  if (impl === 'floor') {
    const middleware = floorMiddleware(asFloorHandlers(handlers));
    return {
      generate: generateText,
      stream: streamText,
      tools: floorTools(tools, asFloorHandlers(handlers)),
      wrap: (model: MockLanguageModelV4) => floorModel(model, middleware),
    };
  }
  const interventions = createInterventions({ handlers });
  return { generate: interventions.generateText, stream: interventions.streamText, tools, wrap: (model: MockLanguageModelV4) => model };
}

/** One run of {@link toolLatencyWorkload}, µs. */
export interface ToolLatencySample {
  readonly fromToolCallUs: number;
  readonly fromFinishUs: number;
}

export interface FloorRun {
  readonly workload: Workload;
  /** The library's decision records of one run (0 for raw and the floor): one more run, after the measured ones. */
  readonly decisionsPerRun: () => Promise<number>;
}

/** The N-step loop through `impl`, every run checked: N steps, N − 1 executions, "done", and every handler method called. */
export function floorWorkload(impl: FloorImpl, mode: Mode, mix: Mix, k: number, steps: number): FloorRun {
  let executed = 0;
  const { generate, stream, tools, wrap } = callsOf(impl, mix, k, () => {
    executed++;
  });
  const expectedCalls = impl === 'raw' ? 0 : k * callsPerHandler(mix, steps);
  // a measured run keeps nothing of itself, as a production request drops its result (see aiSdkWorkload); one
  // more run is checked for its records once the runs are measured
  type Report = { decisions: readonly unknown[] } | undefined;

  const once = async (): Promise<Report> => {
    const executedBefore = executed;
    const callsBefore = methodCalls;
    const options = { model: wrap(scriptedModel(steps)), tools, stopWhen: isStepCount(steps), prompt: 'Echo every step.' };
    let stepCount: number;
    let text: string;
    let interventions: Report;
    if (mode === 'generate') {
      const result = await generate(options);
      stepCount = result.steps.length;
      text = result.text;
      interventions = (result as { interventions?: Report }).interventions;
    } else {
      const result = stream(options);
      for await (const part of result.fullStream) void part;
      stepCount = (await result.steps).length;
      text = await result.text;
      interventions = (result as { interventions?: Report }).interventions;
    }
    const calls = methodCalls - callsBefore;
    if (stepCount !== steps || text !== 'done' || executed - executedBefore !== steps - 1 || calls !== expectedCalls) {
      throw new Error(
        `${impl} run did not follow the script: ${stepCount} steps, text ${JSON.stringify(text)}, ` +
          `${executed - executedBefore} tool calls, ${calls} handler method calls (expected ${expectedCalls})`,
      );
    }
    return interventions;
  };
  const run = async (): Promise<void> => {
    await once();
  };
  return { workload: { steps, run }, decisionsPerRun: async () => (await once())?.decisions.length ?? 0 };
}

/**
 * One streamed step with two tool calls: the first complete at once, the
 * second's input then streamed in five deltas 2 ms apart (the model still
 * generating), then the finish; a second step answers "done". Returns the
 * µs from the moment the model's stream gives the first tool call, and from
 * the moment it gives the step's finish, to the moment that tool's `execute`
 * is entered. (`ai` 7 itself starts a streamed step's tools when the
 * provider has finished the step, so the first figure includes the rest of
 * the step for the raw SDK too; the second is what comes on top.)
 * `approval-point`: the raw SDK with a `toolApproval` that decides nothing
 * (every call not applicable), what deciding at the SDK's approval point
 * costs before anything is decided there; `floor-at-approval`: the raw SDK
 * with the floor's decision (its handler calls) in its `toolApproval`, where
 * ours decides.
 */
export function toolLatencyWorkload(impl: LatencyImpl, k: number): () => Promise<ToolLatencySample> {
  let entered = Number.NaN;
  const calls = callsOf(impl === 'approval-point' || impl === 'floor-at-approval' ? 'raw' : impl, 'before-tool', k, (toolCallId) => {
    if (toolCallId === 'call-1' && Number.isNaN(entered)) entered = performance.now();
  });
  const { stream, tools, wrap } = calls;
  const toolApproval =
    impl === 'approval-point'
      ? () => undefined
      : impl === 'floor-at-approval'
        ? floorApproval(asFloorHandlers(handlersOf('before-tool', k)))
        : undefined;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  const firstStep: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'echo', input: JSON.stringify({ text: 'first' }) },
    { type: 'tool-input-start', id: 'call-2', toolName: 'echo' },
    ...['{"te', 'xt":', ' "se', 'cond', '"}'].map((delta): StreamPart => ({ type: 'tool-input-delta', id: 'call-2', delta })),
    { type: 'tool-input-end', id: 'call-2' },
    { type: 'tool-call', toolCallId: 'call-2', toolName: 'echo', input: JSON.stringify({ text: 'second' }) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ];
  const lastStep: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'done' },
    { type: 'text-end', id: 't0' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
  return async () => {
    entered = Number.NaN;
    let given = Number.NaN;
    let finished = Number.NaN;
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        const first = calls++ === 0;
        const parts = first ? firstStep : lastStep;
        let index = 0;
        return {
          stream: new ReadableStream<StreamPart>({
            async pull(controller) {
              const part = parts[index++]!;
              if (part.type === 'tool-input-delta') await new Promise((resolve) => setTimeout(resolve, 2));
              if (part.type === 'tool-call' && part.toolCallId === 'call-1') given = performance.now();
              if (part.type === 'finish' && first) finished = performance.now();
              controller.enqueue(part);
              if (index === parts.length) controller.close();
            },
          }),
        };
      },
    });
    const options = { model: wrap(model), tools, stopWhen: isStepCount(2), prompt: 'Echo twice.' };
    const result = toolApproval === undefined ? stream(options) : streamText({ ...options, toolApproval });
    for await (const part of result.fullStream) void part;
    if ((await result.text) !== 'done' || Number.isNaN(entered) || Number.isNaN(given) || Number.isNaN(finished)) {
      throw new Error('stream did not follow the script');
    }
    return { fromToolCallUs: (entered - given) * 1e3, fromFinishUs: (entered - finished) * 1e3 };
  };
}

/**
 * One request through `impl` that gives `size` tools and calls none: one
 * step answering "done", with one handler of all four methods (ours guards
 * every tool of the set for its `afterToolCall`; the floor wrapped each
 * tool's `execute` once, when the tools were defined, as an app wraps them
 * at start-up). What a request pays for the tools it is given, before any is
 * called.
 */
export function toolSetWorkload(impl: FloorImpl, size: number): () => Promise<void> {
  const { generate, tools, wrap } = callsOf(
    impl,
    'all-four',
    1,
    () => {
      throw new Error('no tool is called in the tool-set rows');
    },
    size,
  );
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  return async () => {
    // a model per request, as the loop's runs have (a mock keeps every call it was given)
    const model = wrap(
      new MockLanguageModelV4({
        doGenerate: async () => ({
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }),
      }),
    );
    const result = await generate({ model, tools, prompt: 'Say done.' });
    if (result.text !== 'done' || result.steps.length !== 1) throw new Error(`${impl} request did not follow the script`);
  };
}
