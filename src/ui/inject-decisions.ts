import type { InferUIMessageChunk, TextStreamPart, ToolSet, UIMessage, UIMessageChunk, UIMessageStreamOptions } from 'ai';
import { loadedTransform } from '../util/loaded-transform.ts';
import { onDemand } from '../util/on-demand.ts';
import { type DecisionSource, KIND, NAMESPACE } from './decision-source.ts';

/** The decision parts' code: loads when the first UI stream with decisions starts. */
const partsOfDecisions = onDemand(() => import('./decision-parts.ts'));
/** How a run's decisions go through the SDK's own UI conversion, and come out of it as data parts. */
export interface DecisionConversion<UI_MESSAGE extends UIMessage> {
  /** The run's stream with a custom part after each decided call (the SDK's conversion passes it on). */
  inject<TOOLS extends ToolSet>(
    source: DecisionSource,
    stream: ReadableStream<TextStreamPart<TOOLS>>,
    tools: ToolSet | undefined,
  ): ReadableStream<TextStreamPart<TOOLS>>;
  /** The caller's `messageMetadata`, never asked about an added part. */
  readonly messageMetadata: UIMessageStreamOptions<UI_MESSAGE>['messageMetadata'];
  /** A message callback (`onEnd`, `onStepEnd`) given the messages with their decisions as data parts. */
  withDataParts<EVENT extends { readonly responseMessage: UI_MESSAGE; readonly messages: UI_MESSAGE[] }, RESULT>(
    callback: ((event: EVENT) => RESULT) | undefined,
  ): ((event: EVENT) => RESULT) | undefined;
  /** Turns the carried parts of the converted stream into `data-intervention` chunks. */
  readonly toData: TransformStream<InferUIMessageChunk<UI_MESSAGE>, InferUIMessageChunk<UI_MESSAGE>>;
}

/**
 * The decisions of a run on their way through the SDK's own UI conversion
 * (`toUIMessageStream`, and the one `createAgentUIStream` calls): what to
 * give it (the stream, once the run is known, and the caller's options),
 * and the transform of its output. With no stream injected, the output is
 * the SDK's own, chunk for chunk.
 */
export function decisionConversion<UI_MESSAGE extends UIMessage>(
  messageMetadata: UIMessageStreamOptions<UI_MESSAGE>['messageMetadata'],
): DecisionConversion<UI_MESSAGE> {
  const injected = new WeakSet<object>();
  return {
    // the parts load with the first stream that shows decisions
    inject: (source, stream, tools) =>
      stream.pipeThrough(loadedTransform(async () => (await partsOfDecisions()).decisionParts(source, tools, injected))),
    // the parts the runtime added are not the caller's to describe
    messageMetadata: messageMetadata === undefined ? undefined : ({ part }) => (injected.has(part) ? undefined : messageMetadata({ part })),
    withDataParts: (callback) =>
      callback === undefined
        ? undefined
        : (event) => callback({ ...event, responseMessage: withData(event.responseMessage), messages: event.messages.map(withData) }),
    toData: new TransformStream({
      transform(chunk, controller) {
        controller.enqueue((dataChunk(chunk) ?? chunk) as typeof chunk);
      },
    }),
  };
}

/** The data part a decision's custom chunk (or message part) stands for. */
function dataChunk(chunk: { type: string }): UIMessageChunk | undefined {
  if (chunk.type !== 'custom' || (chunk as { kind?: unknown }).kind !== KIND) return undefined;
  const carried = (chunk as { providerMetadata?: Record<string, { id?: unknown; data?: unknown }> }).providerMetadata?.[NAMESPACE];
  return { type: 'data-intervention', id: String(carried?.id), data: carried?.data };
}

/** A message with its decisions as data parts (what the client builds from the stream). */
function withData<UI_MESSAGE extends UIMessage>(message: UI_MESSAGE): UI_MESSAGE {
  if (!message.parts.some((part) => dataChunk(part) !== undefined)) return message;
  return { ...message, parts: message.parts.map((part) => (dataChunk(part) as typeof part | undefined) ?? part) };
}
