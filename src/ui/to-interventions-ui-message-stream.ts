import {
  type InferUIMessageChunk,
  type TextStreamPart,
  type ToolSet,
  toUIMessageStream,
  type UIMessage,
  type UIMessageStreamOptions,
} from 'ai';
import type { InterventionUIMessage } from '../client/intervention-data.ts';
import type { InterventionsReport } from '../run/interventions-report.ts';
import { asyncIterable } from '../util/async-iterable.ts';
import type { DecisionSource } from './decision-source.ts';
import { decisionConversion } from './inject-decisions.ts';

const sources = new WeakMap<InterventionsReport, DecisionSource>();

/** Lets `toInterventionsUIMessageStream` find a run from its report (`result.interventions`). */
export function registerDecisionSource(report: InterventionsReport, source: DecisionSource): void {
  sources.set(report, source);
}

/**
 * Options of {@link toInterventionsUIMessageStream}: the SDK's
 * `toUIMessageStream` options (`originalMessages`, `onEnd`, `sendReasoning`,
 * …) plus the run's report.
 *
 * @example
 * ```ts
 * const result = interventions.streamText({ model, tools, prompt });
 * const options: ToInterventionsUIMessageStreamOptions<typeof tools, InterventionUIMessage> = {
 *   stream: result.stream,
 *   interventions: result.interventions,
 *   tools,
 *   sendReasoning: false,
 * };
 * const stream = toInterventionsUIMessageStream(options);
 * ```
 */
export type ToInterventionsUIMessageStreamOptions<TOOLS extends ToolSet, UI_MESSAGE extends UIMessage> = {
  /** `result.interventions` of the same `interventions.streamText` call. */
  readonly interventions: InterventionsReport;
  /** `result.stream`. */
  readonly stream: ReadableStream<TextStreamPart<TOOLS>>;
  readonly tools?: TOOLS;
} & UIMessageStreamOptions<UI_MESSAGE>;

/**
 * The AI SDK's `toUIMessageStream({ stream: result.stream, ... })` (same
 * options, same chunks) with each decision a handler acted on (a deny,
 * guide, confirm or transform, a remembered answer, a failure, a person's
 * edit, a replayed approval) added as a `data-intervention` part
 * ({@link InterventionData}), once the call's input is complete: which
 * handler decided what, a short reason for people, the person's answer it
 * follows, and the decision records. A call every handler let through gets
 * no part, so with nothing acting the stream is the SDK's own, chunk for
 * chunk (`decisionParts: 'all'` on `createInterventions` adds one for every
 * decided call). A call that runs with a person's edited arguments also
 * shows them in its tool part. The model's wording is unchanged; data parts
 * never reach the model (`convertToModelMessages` skips them).
 *
 * `result.toUIMessageStream()` and `result.toUIMessageStreamResponse()` of
 * `interventions.streamText` include the same parts; use this with the
 * function form. `onEnd` / `onStepEnd` receive the messages with the parts.
 *
 * @example
 * ```ts
 * // app/api/chat/route.ts
 * import { openai } from '@ai-sdk/openai';
 * import { convertToModelMessages, createUIMessageStreamResponse, isStepCount, tool } from 'ai';
 * import { createInterventions, defineHandler, InterventionActions, toInterventionsUIMessageStream, type InterventionUIMessage } from 'ai-interventions';
 * import { z } from 'zod';
 *
 * const interventions = createInterventions({
 *   handlers: [defineHandler({ name: 'no-shell', beforeToolCall: () => InterventionActions.deny('Shell commands are disabled here.', 'Shell is off') })],
 * });
 * const tools = { run_shell: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => 'ok' }) };
 *
 * export async function POST(request: Request) {
 *   const { messages } = (await request.json()) as { messages: InterventionUIMessage[] };
 *   const result = interventions.streamText({
 *     model: openai('gpt-5-mini'), tools, stopWhen: isStepCount(5),
 *     messages: await convertToModelMessages(messages, { tools }),
 *   });
 *   return createUIMessageStreamResponse({
 *     stream: toInterventionsUIMessageStream({ stream: result.stream, interventions: result.interventions, tools, originalMessages: messages }),
 *   });
 * }
 * ```
 */
export function toInterventionsUIMessageStream<TOOLS extends ToolSet = ToolSet, UI_MESSAGE extends UIMessage = InterventionUIMessage>({
  interventions,
  stream,
  ...options
}: ToInterventionsUIMessageStreamOptions<TOOLS, UI_MESSAGE>): ReadableStream<InferUIMessageChunk<UI_MESSAGE>> {
  const source = sources.get(interventions);
  if (source === undefined) return toUIMessageStream<TOOLS, UI_MESSAGE>({ stream, ...options });
  const { messageMetadata, onEnd, onFinish, onStepEnd, onStepFinish } = options;
  const conversion = decisionConversion<UI_MESSAGE>(messageMetadata);
  const sdkOptions: UIMessageStreamOptions<UI_MESSAGE> = {
    ...options,
    messageMetadata: conversion.messageMetadata,
    onEnd: conversion.withDataParts(onEnd ?? onFinish),
    onStepEnd: conversion.withDataParts(onStepEnd ?? onStepFinish),
  };
  delete sdkOptions.onFinish;
  delete sdkOptions.onStepFinish;
  const withDecisions = conversion.inject(source, stream, options.tools);
  return toUIMessageStream<TOOLS, UI_MESSAGE>({ stream: withDecisions, ...sdkOptions }).pipeThrough(conversion.toData);
}

/**
 * Makes `result.toUIMessageStream()` (and so `toUIMessageStreamResponse()`
 * and `pipeUIMessageStreamToResponse()`, which call it) include the run's
 * decisions.
 */
export function attachDecisionStream(result: object, report: InterventionsReport): void {
  Object.defineProperty(result, 'toUIMessageStream', {
    configurable: true,
    writable: true,
    enumerable: false,
    value(options: UIMessageStreamOptions<UIMessage> = {}) {
      const stream = toInterventionsUIMessageStream({
        ...options,
        interventions: report,
        stream: Reflect.get(result, 'stream') as ReadableStream<TextStreamPart<ToolSet>>,
        tools: Reflect.get(result, 'tools') as ToolSet | undefined,
      });
      return asyncIterable(stream);
    },
  });
}
