/**
 * The hand-written floor: what a competent engineer writes on the AI SDK's
 * own extension points to get the same four lifecycle points as the
 * library, with nothing else (no records, no timeouts, no approvals, no
 * failure policy). It is benchmark code, the reference the library's cost
 * is judged against (issue 25), not part of the library.
 *
 * - the model: one `wrapLanguageModel` middleware. `wrapGenerate` calls the
 *   `beforeModelCall` functions, the model, then the `afterModelCall`
 *   functions. `wrapStream` calls the `beforeModelCall` functions and
 *   returns the provider's stream as it is, unless an `afterModelCall`
 *   function must see the step whole: then it reads the step to the end,
 *   calls them, and replays the parts it read.
 * - the tools: each tool's `execute` wrapped once, calling the
 *   `beforeToolCall` functions, the tool, then the `afterToolCall` functions.
 *
 * The functions are the benchmark's no-op handler methods, the very ones the
 * library runs. The floor acts on `proceed` and on a tool `deny` (the tool
 * does not run; its result says why) and refuses any other action: no-op
 * handlers only ever proceed.
 */
import { type LanguageModelMiddleware, type ToolSet, wrapLanguageModel } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';

type Model = MockLanguageModelV4;
type CallOptions = Parameters<Model['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<Model['doGenerate']>>;
type StreamPart = Awaited<ReturnType<Model['doStream']>>['stream'] extends ReadableStream<infer PART> ? PART : never;

/** What the floor's lifecycle functions are given. */
export interface FloorToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** The lifecycle methods the floor calls; each returns an action (`{ type: 'proceed' }` for a no-op). */
export interface FloorHandler {
  beforeModelCall?(event: { readonly params: CallOptions }): unknown;
  afterModelCall?(event: { readonly params: CallOptions; readonly content: GenerateResult['content'] | readonly StreamPart[] }): unknown;
  beforeToolCall?(event: { readonly toolCall: FloorToolCall }): unknown;
  afterToolCall?(event: { readonly toolCall: FloorToolCall; readonly output: unknown }): unknown;
}

/** The handlers that define each lifecycle method, looked up once. */
interface Points {
  readonly beforeModel: readonly FloorHandler[];
  readonly afterModel: readonly FloorHandler[];
  readonly beforeTool: readonly FloorHandler[];
  readonly afterTool: readonly FloorHandler[];
}

function pointsOf(handlers: readonly FloorHandler[]): Points {
  return {
    beforeModel: handlers.filter((handler) => handler.beforeModelCall !== undefined),
    afterModel: handlers.filter((handler) => handler.afterModelCall !== undefined),
    beforeTool: handlers.filter((handler) => handler.beforeToolCall !== undefined),
    afterTool: handlers.filter((handler) => handler.afterToolCall !== undefined),
  };
}

/** `proceed` goes on, a `deny` gives its reason; anything else is beyond the floor. */
function verdictOf(action: unknown, point: string): string | undefined {
  const { type, reason } = action as { readonly type?: unknown; readonly reason?: unknown };
  if (type === 'proceed') return undefined;
  if (type === 'deny' && point === 'beforeToolCall') return typeof reason === 'string' ? reason : 'denied';
  throw new Error(`the floor does not handle ${String(type)} from ${point}`);
}

/** The model middleware: before/after-model functions around each model call. */
export function floorMiddleware(handlers: readonly FloorHandler[]): LanguageModelMiddleware {
  const { beforeModel, afterModel } = pointsOf(handlers);
  const before = (params: CallOptions): void => {
    for (const handler of beforeModel) verdictOf(handler.beforeModelCall!({ params }), 'beforeModelCall');
  };
  const after = (params: CallOptions, content: GenerateResult['content'] | readonly StreamPart[]): void => {
    for (const handler of afterModel) verdictOf(handler.afterModelCall!({ params, content }), 'afterModelCall');
  };
  return {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate, params }) => {
      before(params);
      const result = await doGenerate();
      after(params, result.content);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      before(params);
      const result = await doStream();
      if (afterModel.length === 0) return result; // nothing needs the step whole: the provider's stream as it is
      const parts: StreamPart[] = [];
      const reader = result.stream.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
      after(params, parts);
      return {
        ...result,
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

/** The model, wrapped with {@link floorMiddleware}. */
export function floorModel(model: Model, middleware: LanguageModelMiddleware) {
  return wrapLanguageModel({ model, middleware });
}

/**
 * A `toolApproval` calling the before-tool functions: the floor's decision
 * made at the SDK's approval point instead of inside `execute` (a deny is
 * the SDK's denial; anything else lets the call run).
 */
export function floorApproval(handlers: readonly FloorHandler[]) {
  const { beforeTool } = pointsOf(handlers);
  return ({ toolCall }: { readonly toolCall: FloorToolCall }) => {
    for (const handler of beforeTool) {
      const denied = verdictOf(handler.beforeToolCall!({ toolCall }), 'beforeToolCall');
      if (denied !== undefined) return { type: 'denied' as const, reason: denied };
    }
    return undefined;
  };
}

/** The tools, each `execute` wrapped with the before/after-tool functions (once, not per run). */
export function floorTools<TOOLS extends ToolSet>(tools: TOOLS, handlers: readonly FloorHandler[]): TOOLS {
  const { beforeTool, afterTool } = pointsOf(handlers);
  if (beforeTool.length === 0 && afterTool.length === 0) return tools;
  const wrapped: ToolSet = {};
  for (const [toolName, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (execute === undefined) {
      wrapped[toolName] = tool;
      continue;
    }
    wrapped[toolName] = {
      ...tool,
      execute: async (input: unknown, options: { readonly toolCallId: string }) => {
        const toolCall: FloorToolCall = { toolCallId: options.toolCallId, toolName, input };
        for (const handler of beforeTool) {
          const denied = verdictOf(handler.beforeToolCall!({ toolCall }), 'beforeToolCall');
          if (denied !== undefined) return `The call of ${toolName} was denied: ${denied}`;
        }
        const output = await execute(input as never, options as never);
        for (const handler of afterTool) verdictOf(handler.afterToolCall!({ toolCall, output }), 'afterToolCall');
        return output;
      },
    } as ToolSet[string];
  }
  return wrapped as TOOLS;
}
