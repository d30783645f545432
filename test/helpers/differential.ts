/**
 * Runs the same scripted call through the raw AI SDK and through a wrapper,
 * and returns everything a caller can observe, normalised only where the
 * SDK itself is not deterministic (timings, dates), so the two can be
 * compared with `toEqual`.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { generateText, streamText, ToolSet } from 'ai';

type StreamOptions = Parameters<typeof streamText>[0];
type GenerateOptions = Parameters<typeof generateText>[0];

/** Strips what differs between two identical runs (timings, dates) and makes the rest comparable. */
export function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, item: unknown) => {
      if (key === 'performance' || key === 'timestamp' || key === 'toolExecutionMs' || key === 'durationMs') return undefined;
      if (item instanceof Error) return { error: item.name, message: item.message, text: item.toString() };
      if (item instanceof Uint8Array) return Array.from(item);
      if (item instanceof AbortSignal) return '[AbortSignal]';
      if (typeof item === 'function') return '[function]';
      return item;
    }) ?? 'null',
  );
}

/** Deterministic ids and clock for one run (the SDK's test hooks). */
export function deterministic() {
  let id = 0;
  let time = 0;
  return { generateId: () => `id-${++id}`, generateCallId: () => `call-${id}`, now: () => ++time };
}

/** What the model was sent, comparable. */
export function modelRequests(calls: readonly LanguageModelV4CallOptions[]) {
  return normalize(calls.map(({ abortSignal, ...rest }) => ({ ...rest, abortSignal: abortSignal !== undefined })));
}

export interface StreamObservation {
  readonly parts: unknown;
  readonly text: unknown;
  readonly steps: unknown;
  readonly responseMessages: unknown;
  readonly callbacks: unknown;
  readonly error: unknown;
}

/** Consumes a stream result and records what the caller observes. */
export async function observeStream(
  run: (options: StreamOptions) => ReturnType<typeof streamText>,
  options: StreamOptions,
): Promise<StreamObservation> {
  const callbacks: unknown[] = [];
  const result = run({
    ...options,
    _internal: deterministic(),
    onError: ({ error }) => void callbacks.push({ onError: error }),
    onEnd: (event) => void callbacks.push({ onEnd: event.finishReason }),
    onAbort: () => void callbacks.push('onAbort'),
  } as StreamOptions);
  const parts: unknown[] = [];
  let error: unknown;
  try {
    for await (const part of result.fullStream) parts.push(part);
  } catch (thrown) {
    error = thrown;
  }
  const settle = async (value: PromiseLike<unknown>) => {
    try {
      return await value;
    } catch (thrown) {
      return { rejected: thrown };
    }
  };
  return normalize({
    parts,
    text: await settle(result.text),
    steps: await settle(result.steps),
    responseMessages: await settle(result.responseMessages),
    callbacks,
    error,
  }) as StreamObservation;
}

/** Runs a generate call and records what the caller observes. */
export async function observeGenerate(
  run: (options: GenerateOptions) => ReturnType<typeof generateText>,
  options: GenerateOptions,
): Promise<unknown> {
  try {
    const result = await run({ ...options, _internal: deterministic() } as GenerateOptions);
    return normalize({ content: result.content, steps: result.steps, responseMessages: result.responseMessages, text: result.text });
  } catch (error) {
    return normalize({ rejected: error });
  }
}

export type { ToolSet };
