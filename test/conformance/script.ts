/**
 * A conformance script: what the model answers on each call, which tools
 * exist and how they behave, and which call options are used. A script is
 * plain data (fast-check prints it as a counterexample); `run-script.ts`
 * turns it into a real `generateText` / `streamText` call.
 */
import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** A provider stream part. */
export type Part = LanguageModelV4StreamPart;

/** Something that goes wrong during one model call, at part index `at`. */
export type Fault =
  /** `doGenerate` / `doStream` rejects before anything is streamed. */
  | { readonly kind: 'reject' }
  /** The provider stream errors (the reader throws) before part `at`; `doGenerate` rejects. */
  | { readonly kind: 'throw'; readonly at: number }
  /** The caller's AbortController fires before part `at` (in `doGenerate`: during the call). */
  | { readonly kind: 'abort'; readonly at: number }
  /** The provider stream stalls before part `at` until its abort signal fires (for timeouts). */
  | { readonly kind: 'stall'; readonly at: number };

/** One model call: the parts it streams (`doGenerate` answers with the same content). */
export interface Turn {
  readonly parts: readonly Part[];
  readonly fault?: Fault;
}

export type ToolKind =
  /** `tool({ inputSchema: zod, execute })` */
  | 'function'
  /** `dynamicTool({ inputSchema: jsonSchema, execute })` */
  | 'dynamic'
  /** An instance of a class whose `execute` and `toModelOutput` are prototype methods. */
  | 'class'
  /** No `execute`: the client supplies the result. */
  | 'client';

export type ToolBehavior =
  /** Returns `{ echo: input.q }`. */
  | 'ok'
  /** Throws `new Error('tool failed: <q>')`. */
  | 'throws'
  /** An async generator: two preliminary values, then the final one. */
  | 'generator'
  /** Fires the caller's abort, then returns. */
  | 'abort';

export interface ToolSpec {
  readonly name: string;
  readonly kind: ToolKind;
  readonly behavior: ToolBehavior;
  /** The deprecated per-tool approval: `true`, or a function that asks when `q` starts with `ask`. */
  readonly needsApproval?: boolean | 'when-ask';
  /** `onInputStart` / `onInputDelta` / `onInputAvailable` recorders. */
  readonly inputCallbacks?: boolean;
  /** An own `toModelOutput` (the class kind has one on its prototype). */
  readonly toModelOutput?: boolean;
  /** `metadata` on the tool (copied to parts as `toolMetadata`). */
  readonly metadata?: boolean;
}

export type ApprovalStatusSpec = 'approved' | 'denied' | 'user-approval' | 'not-applicable';

/** The `toolApproval` option. */
export type ToolApprovalSpec =
  /** Per tool: a fixed status, or a function returning that status (with a reason). */
  | { readonly kind: 'per-tool'; readonly statuses: Readonly<Record<string, ApprovalStatusSpec>>; readonly asFunction: boolean }
  /** One generic function: asks for `q` starting with `ask`, denies `deny…`, approves `ok…`. */
  | { readonly kind: 'generic' };

/** What `prepareStep` returns at a step (recorded in every case). */
export interface PrepareStepSpec {
  readonly activeTools?: readonly string[];
  readonly toolChoice?: 'auto' | 'none' | 'required';
  readonly instructions?: string;
  readonly temperature?: number;
}

export type StopSpec =
  | { readonly kind: 'default' }
  | { readonly kind: 'count'; readonly steps: number }
  | { readonly kind: 'has-tool-call'; readonly toolName: string; readonly steps: number };

export interface OptionsSpec {
  readonly stop: StopSpec;
  /** `prepareStep`: recorded; returns the n-th entry at step n (or nothing). */
  readonly prepareStep?: readonly (PrepareStepSpec | null)[];
  readonly activeTools?: readonly string[];
  readonly toolChoice?: 'auto' | 'none' | 'required';
  readonly toolApproval?: ToolApprovalSpec;
  /** `output: Output.object({ schema: { answer: string } })`. */
  readonly output?: boolean;
  readonly includeRawChunks?: boolean;
  readonly timeout?: {
    readonly totalMs?: number;
    readonly stepMs?: number;
    readonly chunkMs?: number;
    readonly firstChunkMs?: number;
    readonly toolMs?: number;
  };
  /** Pass the caller's `abortSignal` (a fault of kind `abort` implies it). */
  readonly abortSignal?: boolean;
  /** Call settings and provider options. */
  readonly settings?: {
    readonly temperature?: number;
    readonly maxOutputTokens?: number;
    readonly seed?: number;
    readonly providerOptions?: boolean;
    readonly headers?: boolean;
  };
  readonly instructions?: string;
  readonly runtimeContext?: boolean;
  /** `repairToolCall`: returns null, or repairs the call (input `{"q":"repaired"}`). */
  readonly repair?: 'null' | 'fix';
  /** Register every callback (otherwise none, and stream errors go to the SDK's default `onError`). */
  readonly callbacks: boolean;
  /** Start from this history instead of a user prompt. */
  readonly prompt?: 'string' | 'messages';
}

/** A resume after the first call ended with approval requests. */
export interface ResumeSpec {
  /** Approve (true) or refuse (false) each pending request, in order; the last entry repeats. */
  readonly approve: readonly boolean[];
  readonly reason?: string;
  /** `providerOptions` on the approval responses. */
  readonly providerOptions?: boolean;
  /** Send the resume request a second time, unchanged (a regenerate). */
  readonly replay?: boolean;
}

export interface Script {
  readonly turns: readonly Turn[];
  readonly tools: readonly ToolSpec[];
  readonly options: OptionsSpec;
  readonly resume?: ResumeSpec;
}

/** The answer of a call past the end of the script. */
export const FALLBACK_TURN: Turn = {
  parts: [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'fallback' },
    { type: 'text-delta', id: 'fallback', delta: 'fallback answer' },
    { type: 'text-end', id: 'fallback' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageOf(3) },
  ],
};

export function usageOf(output: number): Extract<Part, { type: 'finish' }>['usage'] {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/**
 * The `doGenerate` answer describing the same content as a turn's stream
 * parts: text and reasoning blocks joined per id (metadata of the end part,
 * else of the start part), the other content parts as they are. `undefined`
 * when the parts carry an `error` (the call then rejects with it) or no
 * `finish` part.
 */
export function generateResultOf(parts: readonly Part[]): LanguageModelV4GenerateResult | { readonly error: unknown } {
  const content: LanguageModelV4Content[] = [];
  const blocks = new Map<string, { index: number }>();
  let finish: Extract<Part, { type: 'finish' }> | undefined;
  let warnings: Extract<Part, { type: 'stream-start' }>['warnings'] = [];
  let response: LanguageModelV4GenerateResult['response'];
  for (const part of parts) {
    switch (part.type) {
      case 'stream-start':
        warnings = part.warnings;
        break;
      case 'response-metadata': {
        const { type: _type, ...metadata } = part;
        response = metadata;
        break;
      }
      case 'text-start':
      case 'reasoning-start': {
        const type = part.type === 'text-start' ? 'text' : 'reasoning';
        blocks.set(`${type}:${part.id}`, { index: content.length });
        content.push({ type, text: '', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) });
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const type = part.type === 'text-delta' ? 'text' : 'reasoning';
        const block = blocks.get(`${type}:${part.id}`);
        if (block === undefined) break;
        const target = content[block.index] as { text: string };
        target.text += part.delta;
        break;
      }
      case 'text-end':
      case 'reasoning-end': {
        const type = part.type === 'text-end' ? 'text' : 'reasoning';
        const block = blocks.get(`${type}:${part.id}`);
        if (block !== undefined && part.providerMetadata) {
          (content[block.index] as { providerMetadata?: unknown }).providerMetadata = part.providerMetadata;
        }
        break;
      }
      case 'finish':
        finish = part;
        break;
      case 'error':
        return { error: part.error };
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-input-end':
      case 'raw':
      case 'ping':
        break;
      default:
        content.push(part);
    }
  }
  if (finish === undefined) return { error: new Error('the scripted turn has no finish part') };
  return {
    content,
    finishReason: finish.finishReason,
    usage: finish.usage,
    warnings,
    ...(finish.providerMetadata ? { providerMetadata: finish.providerMetadata } : {}),
    ...(response ? { response } : {}),
  };
}
