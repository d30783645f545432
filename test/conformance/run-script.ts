/**
 * Runs a script through one runner (the raw SDK or a wrapper) and records
 * everything a caller can observe, normalized (see `normalize.ts`): the
 * stream parts, `textStream`, the UI message stream, every result field,
 * every callback and hook the SDK offers (in one ordered log, with what
 * each tool's `execute` and the model received), console errors, and what
 * the call threw. A script with a `resume` runs again from the first
 * call's history plus the approval responses (and, with `replay`, a third
 * time with the very same request).
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  dynamicTool,
  hasToolCall,
  isStepCount,
  jsonSchema,
  type ModelMessage,
  Output,
  type StopCondition,
  type Tool,
  type ToolSet,
  tool,
} from 'ai';
import { z } from 'zod';
import type { Mode, Runner } from './configurations.ts';
import { type NormalizeContext, normalize } from './normalize.ts';
import type { ApprovalStatusSpec, Script, ToolSpec } from './script.ts';
import { scriptModel } from './script-model.ts';

/** One logged event: a callback, a hook of a tool, a model call, with its normalized argument. */
export type LogEntry = readonly [event: string, payload: unknown];

export interface PhaseObservation {
  /** The messages the phase was called with. */
  readonly input: unknown;
  /** `generateText`: the rejection; `streamText`: a synchronous throw. */
  readonly threw?: unknown;
  /** `generateText`: the result (every getter, hidden own properties included). */
  readonly result?: unknown;
  /** `streamText`: `result.stream`, `result.textStream`, the UI message stream, each read to its end. */
  readonly stream?: unknown;
  readonly textStream?: unknown;
  readonly uiStream?: unknown;
  readonly partialOutputStream?: unknown;
  /** `streamText`: every result promise, settled; the result's own property names. */
  readonly fields?: unknown;
  readonly log: readonly LogEntry[];
}

export interface Observation {
  readonly phases: readonly PhaseObservation[];
}

const STREAM_FIELDS = [
  'text',
  'content',
  'reasoning',
  'reasoningText',
  'files',
  'sources',
  'toolCalls',
  'staticToolCalls',
  'dynamicToolCalls',
  'toolResults',
  'staticToolResults',
  'dynamicToolResults',
  'finishReason',
  'rawFinishReason',
  'usage',
  'totalUsage',
  'warnings',
  'request',
  'response',
  'providerMetadata',
  'steps',
  'finalStep',
  'responseMessages',
  'output',
] as const;

const CALLBACKS = [
  'onStart',
  'onStepStart',
  'onLanguageModelCallStart',
  'onLanguageModelCallEnd',
  'onToolExecutionStart',
  'onToolExecutionEnd',
  'onStepEnd',
  'onStepError',
  'onEnd',
] as const;
const STREAM_CALLBACKS = ['onChunk', 'onAbort'] as const;

/** Runs `script` through `runner` in `mode` and records what a caller observes. */
export async function observe(script: Script, mode: Mode, runner: Runner): Promise<Observation> {
  const startedAt = Date.now();
  let log: LogEntry[] = [];
  let controller = new AbortController();
  const models = new Set<object>();
  const toolObjects = new Map<object, string>();
  const context: NormalizeContext = { tools: toolObjects, models, startedAt };
  const record = (event: string, payload: unknown) => {
    log.push([event, normalize(payload, context)]);
  };
  const abortCaller = () => controller.abort(new Error('the caller aborted'));

  const model = scriptModel({
    turns: script.turns,
    abort: abortCaller,
    onCall: (kind, options: LanguageModelV4CallOptions) => record(kind, options),
  });
  models.add(model);
  const tools = buildTools(script.tools, record, abortCaller);
  for (const [name, object] of Object.entries(tools)) toolObjects.set(object, name);

  const phases: PhaseObservation[] = [];
  let messages: ModelMessage[] | undefined;
  for (let phase = 0; phase < 3; phase++) {
    log = [];
    controller = new AbortController();
    const options = callOptions(script, { model, tools, record, signal: controller.signal, messages, mode });
    const input = normalize(options.messages ?? options.prompt, context);
    const observed = await runPhase({ runner, mode, options, record, context, tools });
    phases.push({ input, ...observed.observation, log });

    if (phase === 0) {
      if (script.resume === undefined || observed.responseMessages === undefined) break;
      const next = resumeMessages(inputMessages(options), observed.responseMessages, script);
      if (next === undefined) break;
      messages = next;
    } else if (phase === 1 && script.resume?.replay !== true) {
      break;
    }
  }
  return { phases };
}

function inputMessages(options: Record<string, unknown>): ModelMessage[] {
  if (Array.isArray(options.messages)) return options.messages as ModelMessage[];
  if (Array.isArray(options.prompt)) return options.prompt as ModelMessage[];
  return [{ role: 'user', content: options.prompt as string }];
}

/** The history of a resume: the first call's input and response, then one approval response per request. */
function resumeMessages(input: readonly ModelMessage[], response: readonly ModelMessage[], script: Script): ModelMessage[] | undefined {
  const resume = script.resume;
  if (resume === undefined) return undefined;
  const requests: string[] = [];
  for (const message of response) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.isAutomatic !== true) requests.push(part.approvalId);
    }
  }
  if (requests.length === 0) return undefined;
  return [
    ...input,
    ...response,
    {
      role: 'tool',
      content: requests.map((approvalId, index) => ({
        type: 'tool-approval-response' as const,
        approvalId,
        approved: resume.approve[Math.min(index, resume.approve.length - 1)] ?? true,
        ...(resume.reason === undefined ? {} : { reason: resume.reason }),
        ...(resume.providerOptions ? { providerOptions: { mock: { approvalNote: `note ${index}` } } } : {}),
      })),
    },
  ];
}

async function runPhase({
  runner,
  mode,
  options,
  record,
  context,
  tools,
}: {
  runner: Runner;
  mode: Mode;
  options: Record<string, unknown>;
  record: (event: string, payload: unknown) => void;
  context: NormalizeContext;
  tools: ToolSet;
}): Promise<{ observation: Omit<PhaseObservation, 'input' | 'log'>; responseMessages: ModelMessage[] | undefined }> {
  const consoleError = console.error;
  const consoleWarn = console.warn;
  const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const logWarnings = global.AI_SDK_LOG_WARNINGS;
  console.error = (...args: unknown[]) => record('console.error', args);
  console.warn = (...args: unknown[]) => record('console.warn', args);
  global.AI_SDK_LOG_WARNINGS = (warnings: unknown) => record('logWarnings', warnings);
  try {
    if (mode === 'generateText') {
      try {
        const result = await runner.generateText(options);
        const responseMessages = (result as { responseMessages: ModelMessage[] }).responseMessages;
        return { observation: { result: normalize(result, context) }, responseMessages };
      } catch (error) {
        return { observation: { threw: normalize(error, context) }, responseMessages: undefined };
      }
    }

    let result: Record<string, unknown>;
    try {
      result = runner.streamText(options) as Record<string, unknown>;
    } catch (error) {
      return { observation: { threw: normalize(error, context) }, responseMessages: undefined };
    }
    // every projection is taken before anything is read, so each sees the whole stream
    const stream = result.stream as ReadableStream<unknown>;
    const textStream = result.textStream as ReadableStream<unknown>;
    // the result's own method: what toUIMessageStreamResponse and useChat's route read (the wrappers' decision parts included)
    const uiStream = (result.toUIMessageStream as (options: Record<string, unknown>) => ReadableStream<unknown>)({
      sendReasoning: true,
      sendSources: true,
      generateMessageId: counter('ui-message'),
      onError: (error: unknown) => describeError(error),
    });
    const partial = options.output === undefined ? undefined : (result.partialOutputStream as ReadableStream<unknown>);
    const [parts, texts, chunks, partials] = await Promise.all([
      readAll(stream, context),
      readAll(textStream, context),
      readAll(uiStream, context),
      partial === undefined ? undefined : readAll(partial, context),
    ]);
    const fields: Record<string, unknown> = {
      $class: Object.getPrototypeOf(result)?.constructor?.name,
      ownProperties: Object.fromEntries(
        Object.getOwnPropertyNames(result)
          .filter((key) => !isSdkInternal(key))
          .map((key) => [key, Object.getOwnPropertyDescriptor(result, key)?.enumerable === true ? 'enumerable' : 'hidden']),
      ),
    };
    let responseMessages: ModelMessage[] | undefined;
    for (const field of STREAM_FIELDS) {
      try {
        const value: unknown = await result[field];
        if (field === 'responseMessages') responseMessages = value as ModelMessage[];
        fields[field] = normalize(value, context);
      } catch (error) {
        fields[field] = { $rejected: normalize(error, context) };
      }
    }
    return {
      observation: {
        stream: parts,
        textStream: texts,
        uiStream: chunks,
        ...(partials === undefined ? {} : { partialOutputStream: partials }),
        fields,
      },
      responseMessages,
    };
  } finally {
    console.error = consoleError;
    console.warn = consoleWarn;
    global.AI_SDK_LOG_WARNINGS = logWarnings;
  }
}

/** The SDK result's own private state (fields of its class), not part of what it exposes. */
function isSdkInternal(key: string): boolean {
  return (
    key.startsWith('_') ||
    key === 'baseStream' ||
    key === 'retention' ||
    key === 'streamClaimed' ||
    key === 'outputPromise' ||
    key === 'output' ||
    key === 'includeRawChunks' ||
    key === 'tools'
  );
}

async function readAll(stream: ReadableStream<unknown>, context: NormalizeContext): Promise<unknown> {
  const items: unknown[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return items;
      items.push(normalize(value, context));
    }
  } catch (error) {
    return { items, $error: normalize(error, context) };
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `non-error: ${JSON.stringify(error)}`;
}

/** A deterministic id generator (`prefix-0`, `prefix-1`, …). */
export function counter(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}-${next++}`;
}

function callOptions(
  script: Script,
  {
    model,
    tools,
    record,
    signal,
    messages,
    mode,
  }: {
    model: object;
    tools: ToolSet;
    record: (event: string, payload: unknown) => void;
    signal: AbortSignal;
    messages: ModelMessage[] | undefined;
    mode: Mode;
  },
): Record<string, unknown> {
  const spec = script.options;
  const options: Record<string, unknown> = {
    model,
    maxRetries: 0,
    _internal: { generateId: counter('id'), generateCallId: counter('call'), now: () => 0 },
  };
  if (script.tools.length > 0) options.tools = tools;
  if (messages !== undefined) options.messages = messages;
  else if (spec.prompt === 'messages') {
    options.messages = [{ role: 'user', content: [{ type: 'text', text: 'Hello', providerOptions: { mock: { cache: true } } }] }];
  } else options.prompt = 'Hello';
  if (spec.instructions !== undefined) options.instructions = spec.instructions;

  const stop = spec.stop;
  const recorded =
    (name: string, condition: StopCondition<ToolSet>): StopCondition<ToolSet> =>
    async ({ steps }) => {
      const stops = await condition({ steps });
      record('stopWhen', { condition: name, steps: steps.length, stops });
      return stops;
    };
  if (stop.kind === 'count') options.stopWhen = recorded(`isStepCount(${stop.steps})`, isStepCount(stop.steps));
  if (stop.kind === 'has-tool-call') {
    options.stopWhen = [
      recorded(`hasToolCall(${stop.toolName})`, hasToolCall(stop.toolName)),
      recorded(`isStepCount(${stop.steps})`, isStepCount(stop.steps)),
    ];
  }

  if (spec.prepareStep !== undefined) {
    const answers = spec.prepareStep;
    options.prepareStep = (step: { stepNumber: number; steps: unknown[] } & Record<string, unknown>) => {
      const { steps, ...rest } = step;
      record('prepareStep', { ...rest, steps: steps.length });
      const answer = answers[step.stepNumber];
      if (answer === undefined || answer === null) return undefined;
      return { ...answer, ...(answer.activeTools ? { activeTools: [...answer.activeTools] } : {}) };
    };
  }
  if (spec.activeTools !== undefined) options.activeTools = [...spec.activeTools];
  if (spec.toolChoice !== undefined) options.toolChoice = spec.toolChoice;
  if (spec.toolApproval !== undefined) options.toolApproval = toolApprovalOf(spec.toolApproval, record);
  if (spec.output) options.output = Output.object({ schema: z.object({ answer: z.string() }) });
  if (spec.includeRawChunks !== undefined) options.includeRawChunks = spec.includeRawChunks;
  if (spec.timeout !== undefined) options.timeout = { ...spec.timeout };
  const aborts =
    spec.abortSignal === true ||
    script.turns.some((turn) => turn.fault?.kind === 'abort') ||
    script.tools.some((tool) => tool.behavior === 'abort');
  if (aborts) options.abortSignal = signal;
  const settings = spec.settings;
  if (settings?.temperature !== undefined) options.temperature = settings.temperature;
  if (settings?.maxOutputTokens !== undefined) options.maxOutputTokens = settings.maxOutputTokens;
  if (settings?.seed !== undefined) options.seed = settings.seed;
  if (settings?.providerOptions) options.providerOptions = { mock: { mode: 'conformance' } };
  if (settings?.headers) options.headers = { 'x-conformance': 'yes' };
  if (spec.runtimeContext) {
    options.runtimeContext = { tenant: 'acme' };
    options.toolsContext = Object.fromEntries(script.tools.map((tool) => [tool.name, { user: `user-of-${tool.name}` }]));
  }
  if (spec.repair !== undefined) {
    const fix = spec.repair === 'fix';
    options.repairToolCall = (repair: { toolCall: { input: string } } & Record<string, unknown>) => {
      const { inputSchema: _schema, ...rest } = repair;
      record('repairToolCall', rest);
      return fix ? { ...repair.toolCall, input: JSON.stringify({ q: 'repaired' }) } : null;
    };
  }
  if (spec.callbacks) {
    for (const name of CALLBACKS) options[name] = (event: unknown) => record(name, event);
    if (mode === 'streamText') {
      for (const name of STREAM_CALLBACKS) options[name] = (event: unknown) => record(name, event);
      options.onError = (event: unknown) => record('onError', event);
    }
  }
  return options;
}

function toolApprovalOf(spec: NonNullable<Script['options']['toolApproval']>, record: (event: string, payload: unknown) => void): unknown {
  if (spec.kind === 'generic') {
    return (options: { toolCall: { input: unknown } } & Record<string, unknown>) => {
      record('toolApproval', options);
      return statusFor(qOf(options.toolCall.input));
    };
  }
  const entries = Object.entries(spec.statuses).map(([name, status]) => {
    if (!spec.asFunction) return [name, status];
    return [
      name,
      (input: unknown, options: unknown) => {
        record('toolApproval', { tool: name, input, options });
        return status === 'not-applicable' ? status : { type: status, reason: `${status} by policy` };
      },
    ];
  });
  return Object.fromEntries(entries);
}

/** The generic policy: `ask…` needs a human, `deny…` is denied, `ok…` approved, others not applicable. */
function statusFor(q: string): { type: ApprovalStatusSpec; reason?: string } {
  if (q.startsWith('ask')) return { type: 'user-approval', reason: `please confirm ${q}` };
  if (q.startsWith('deny')) return { type: 'denied', reason: `${q} is not allowed` };
  if (q.startsWith('ok')) return { type: 'approved', reason: 'fine' };
  return { type: 'not-applicable' };
}

function qOf(input: unknown): string {
  const q = (input as { q?: unknown } | null | undefined)?.q;
  return typeof q === 'string' ? q : JSON.stringify(q);
}

const inputSchema = () => z.object({ q: z.string() });

function buildTools(specs: readonly ToolSpec[], record: (event: string, payload: unknown) => void, abortCaller: () => void): ToolSet {
  const tools: ToolSet = {};
  for (const spec of specs) tools[spec.name] = buildTool(spec, record, abortCaller);
  return tools;
}

function buildTool(spec: ToolSpec, record: (event: string, payload: unknown) => void, abortCaller: () => void): Tool {
  const { name, behavior } = spec;
  let self: Tool | undefined;
  const answer = (input: unknown) => {
    const q = qOf(input);
    if (behavior === 'throws') throw new Error(`tool failed: ${q}`);
    if (behavior === 'abort') abortCaller();
    return { echo: q };
  };
  const execute =
    behavior === 'generator'
      ? async function* (this: unknown, input: unknown, options: unknown) {
          record('execute', { tool: name, input, options, thisIsTool: this === self });
          yield { status: 'working', q: qOf(input) };
          yield { status: 'almost', q: qOf(input) };
          yield { echo: qOf(input) };
        }
      : async function (this: unknown, input: unknown, options: unknown) {
          record('execute', { tool: name, input, options, thisIsTool: this === self });
          return answer(input);
        };

  const extras: Record<string, unknown> = {};
  if (spec.needsApproval === true) extras.needsApproval = true;
  if (spec.needsApproval === 'when-ask') {
    extras.needsApproval = (input: unknown, options: unknown) => {
      record('needsApproval', { tool: name, input, options });
      return qOf(input).startsWith('ask');
    };
  }
  if (spec.inputCallbacks) {
    extras.onInputStart = (options: unknown) => record('onInputStart', { tool: name, options });
    extras.onInputDelta = (options: unknown) => record('onInputDelta', { tool: name, options });
    extras.onInputAvailable = (options: unknown) => record('onInputAvailable', { tool: name, options });
  }
  if (spec.toModelOutput) {
    extras.toModelOutput = (options: unknown) => {
      record('toModelOutput', { tool: name, options });
      return { type: 'text', value: `model sees ${JSON.stringify((options as { output: unknown }).output)}` };
    };
  }
  if (spec.metadata) extras.metadata = { owner: name };

  switch (spec.kind) {
    case 'function':
      self = tool({ description: `the ${name} tool`, inputSchema: inputSchema(), execute, ...extras } as never) as Tool;
      break;
    case 'client':
      self = tool({ description: `the ${name} tool (client side)`, inputSchema: inputSchema(), ...extras } as never) as Tool;
      break;
    case 'dynamic':
      self = dynamicTool({
        description: `the ${name} tool (dynamic)`,
        inputSchema: jsonSchema({
          type: 'object',
          properties: { q: { type: 'string' } },
          required: ['q'],
          additionalProperties: false,
        }),
        execute,
        ...extras,
      } as never) as Tool;
      break;
    case 'class':
      self = classTool(name, execute, record, extras);
      break;
  }
  return self;
}

/**
 * A tool written as a class: `execute` and `toModelOutput` are prototype
 * methods, `description` a prototype getter, only `inputSchema` is own.
 */
function classTool(
  name: string,
  execute: (input: unknown, options: unknown) => unknown,
  record: (event: string, payload: unknown) => void,
  extras: Record<string, unknown>,
): Tool {
  class ConformanceTool {
    readonly inputSchema = inputSchema();
    get description(): string {
      return `the ${name} tool (class)`;
    }
    execute(input: unknown, options: unknown): unknown {
      return execute.call(this, input, options);
    }
    toModelOutput(options: { output: unknown }): unknown {
      record('toModelOutput', { tool: name, options, via: 'prototype' });
      return { type: 'text', value: `class output ${JSON.stringify(options.output)}` };
    }
  }
  return Object.assign(new ConformanceTool(), extras) as unknown as Tool;
}
