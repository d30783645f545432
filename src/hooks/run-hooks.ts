import type { ModelMessage } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { HookEntry } from './hook-registry.ts';
import type {
  HookName,
  InterventionHooks,
  OnResponseContext,
  OnToolCallErrorContext,
  OnToolCallResultContext,
  PreRequestContext,
  PreToolCallContext,
  ProviderRequest,
  ProviderResponse,
  TransformContextContext,
} from './hook-types.ts';
import { runWaterfall, type WaterfallStep } from './run-waterfall.ts';
import { markThrownByHook } from './thrown-by-hook.ts';

type ContextOf<K extends HookName> = Parameters<InterventionHooks[K]>[0];

/**
 * Runs observers in order, awaiting each (synchronously while they answer
 * at once); a throw propagates, marked with the hook (see `thrownByHook`).
 */
export function runObservers<K extends HookName>(entries: ReadonlyArray<HookEntry<K>>, context: ContextOf<K>): void | Promise<void> {
  return runWaterfall(entries, undefined, () => context, GO_ON, NOTHING);
}

const GO_ON = (): WaterfallStep<undefined, undefined> => ({ next: undefined });
const NOTHING = (): undefined => undefined;

/** Runs observers and swallows their throws (`onChatError`, `onChatAbort`). */
export async function notifyObservers<K extends HookName>(entries: ReadonlyArray<HookEntry<K>>, context: ContextOf<K>): Promise<void> {
  for (const { hook } of entries) {
    try {
      await (hook as (context: ContextOf<K>) => unknown)(context);
    } catch {
      // a throw here must not replace the error or abort being reported
    }
  }
}

/** What `preRequest` hooks decided: the request, and a response that answers it instead of the provider. */
export type PreRequestOutcome =
  | { readonly request: ProviderRequest; readonly response?: undefined }
  | { readonly request: ProviderRequest; readonly response: ProviderResponse };

/** `preRequest`: a waterfall over the request that stops at `{ response }`. */
export async function runPreRequest(
  entries: ReadonlyArray<HookEntry<'preRequest'>>,
  context: PreRequestContext,
): Promise<PreRequestOutcome> {
  return runWaterfall(
    entries,
    context.request,
    (request) => ({ ...context, request }),
    (returned, request, label): WaterfallStep<ProviderRequest, PreRequestOutcome> => {
      if (isNothing(returned)) return { next: request };
      if (isObjectWith(returned, 'response')) return { stop: { request, response: returned.response as ProviderResponse } };
      if (isObjectWith(returned, 'request')) return { next: returned.request as ProviderRequest };
      throw invalid(label, returned, 'undefined, { request } or { response }');
    },
    (request) => ({ request }),
  );
}

/** `onResponse`: a waterfall over the response; always drains. */
export async function runOnResponse(
  entries: ReadonlyArray<HookEntry<'onResponse'>>,
  context: OnResponseContext,
): Promise<ProviderResponse> {
  return runWaterfall(entries, context.response, (response) => ({ ...context, response }), replacing('response'), same);
}

/** What `preToolCall` hooks decided. */
export type PreToolCallOutcome =
  | { readonly type: 'call'; readonly call: ToolCallInfo }
  | { readonly type: 'result'; readonly call: ToolCallInfo; readonly result: unknown }
  | { readonly type: 'error'; readonly call: ToolCallInfo; readonly error: unknown };

/**
 * `preToolCall`: a waterfall over the call that stops at `{ error }` or
 * `{ result }` (checked in that order).
 */
export function runPreToolCall(
  entries: ReadonlyArray<HookEntry<'preToolCall'>>,
  context: PreToolCallContext,
): PreToolCallOutcome | Promise<PreToolCallOutcome> {
  return runWaterfall(
    entries,
    context.call,
    (call) => ({ ...context, call }),
    (returned, call, label): WaterfallStep<ToolCallInfo, PreToolCallOutcome> => {
      if (isNothing(returned)) return { next: call };
      if (isObjectWith(returned, 'error')) return { stop: { type: 'error', call, error: returned.error } };
      if (isObjectWith(returned, 'result')) return { stop: { type: 'result', call, result: returned.result } };
      if (isObjectWith(returned, 'call')) {
        const next = returned.call as Partial<ToolCallInfo> | null;
        if (next == null || typeof next !== 'object' || next.toolCallId !== call.toolCallId || next.toolName !== call.toolName) {
          throw invalid(label, returned, '{ call } with the same toolCallId and toolName (only its input may change)');
        }
        return { next: next as ToolCallInfo };
      }
      throw invalid(label, returned, 'undefined, { call }, { result } or { error }');
    },
    (call) => ({ type: 'call', call }),
  );
}

/** `onToolCallResult`: a waterfall over the result; always drains. */
export async function runOnToolCallResult(
  entries: ReadonlyArray<HookEntry<'onToolCallResult'>>,
  context: OnToolCallResultContext,
): Promise<unknown> {
  return runWaterfall(entries, context.result, (result) => ({ ...context, result }), replacing('result'), same);
}

/** `onToolCallError`: a waterfall over the error; always drains. */
export async function runOnToolCallError(
  entries: ReadonlyArray<HookEntry<'onToolCallError'>>,
  context: OnToolCallErrorContext,
): Promise<unknown> {
  return runWaterfall(entries, context.error, (error) => ({ ...context, error }), replacing('error'), same);
}

/** `transformContext`: a waterfall over the messages (a hook returns the new array); always drains. */
export async function runTransformContext(
  entries: ReadonlyArray<HookEntry<'transformContext'>>,
  context: TransformContextContext,
): Promise<ModelMessage[]> {
  return runWaterfall(
    entries,
    context.messages,
    (messages) => ({ ...context, messages }),
    (returned, messages, label): WaterfallStep<ModelMessage[], ModelMessage[]> => {
      if (isNothing(returned)) return { next: messages };
      if (!Array.isArray(returned)) throw invalid(label, returned, 'undefined or an array of messages');
      return { next: returned as ModelMessage[] };
    },
    same,
  );
}

/**
 * The step of a waterfall whose hooks may replace one value: nothing keeps
 * it, `{ [key]: value }` replaces it, anything else is the hook's mistake.
 */
function replacing<VALUE>(key: string): (returned: unknown, value: VALUE, label: string) => WaterfallStep<VALUE, VALUE> {
  return (returned, value, label) => {
    if (isNothing(returned)) return { next: value };
    if (!isObjectWith(returned, key)) throw invalid(label, returned, `undefined or { ${key} }`);
    return { next: returned[key] as VALUE };
  };
}

const same = <VALUE>(value: VALUE): VALUE => value;

/**
 * Calls one hook. A throw ends the call with that same error (seed 004),
 * marked with the hook's label so `thrownByHook(error)` can say which hook it was.
 */
export async function callHook<K extends HookName>(entry: HookEntry<K>, context: ContextOf<K>): Promise<unknown> {
  try {
    return await (entry.hook as (context: ContextOf<K>) => unknown)(context);
  } catch (error) {
    throw markThrownByHook(error, entry.label);
  }
}

/** `undefined`, or an empty object (seed 002's "no change": `return {}`). */
export function isNothing(value: unknown): boolean {
  return value === undefined || (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

function isObjectWith<KEY extends string>(value: unknown, key: KEY): value is Record<KEY, unknown> {
  return value != null && typeof value === 'object' && Object.hasOwn(value, key);
}

function invalid(label: string, received: unknown, expected: string) {
  return new InvalidHookResultError({ hook: label, received, expected });
}
