import {
  type InferUIMessageChunk,
  type TextStreamPart,
  type ToolSet,
  toUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  type UIMessageStreamOptions,
} from 'ai';
import type { Resume, ResumedApproval } from '../approvals/read-resume.ts';
import type { InterventionData, InterventionUIMessage } from '../client/intervention-data.ts';
import type { DecisionRecord } from '../handlers/decision-record.ts';
import { redactData } from '../redaction/redact-data.ts';
import { redactionForPeople } from '../redaction/redaction-for-people.ts';
import type { InterventionsReport } from '../run/interventions-report.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { getOwn } from '../util/get-own.ts';
import { interventionDataOf } from './intervention-data-of.ts';

/** What the UI stream reads from a run: its records as they are written, and what its input resumed. */
export interface DecisionSource {
  readonly runId: string | undefined;
  readonly decisions: readonly DecisionRecord[];
  readonly resume: Resume;
  readonly tools: ToolSet | undefined;
  /** Which calls get a part (only those a handler acted on, or every decided one), and the rules redacting what they show. */
  readonly snapshot: Pick<RuntimeSnapshot, 'decisionParts' | 'redactors' | 'handlers'>;
}

const sources = new WeakMap<InterventionsReport, DecisionSource>();

/** Lets `toInterventionsUIMessageStream` find a run from its report (`result.interventions`). */
export function registerDecisionSource(report: InterventionsReport, source: DecisionSource): void {
  sources.set(report, source);
}

/** Whether a run has decisions a UI would show: tool calls it decides, or answers it resumes. */
export function showsDecisions(source: DecisionSource, decidesToolCalls: boolean): boolean {
  return decidesToolCalls || source.resume.answers.length > 0;
}

// how a decision travels through the SDK's own conversion, before it becomes a data part
const KIND = 'ai-interventions.decision';
const NAMESPACE = 'aiInterventions';

type Options<TOOLS extends ToolSet, UI_MESSAGE extends UIMessage> = {
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
}: Options<TOOLS, UI_MESSAGE>): ReadableStream<InferUIMessageChunk<UI_MESSAGE>> {
  const source = sources.get(interventions);
  if (source === undefined) return toUIMessageStream<TOOLS, UI_MESSAGE>({ stream, ...options });
  const { messageMetadata, onEnd, onFinish, onStepEnd, onStepFinish } = options;
  const ending = onEnd ?? onFinish;
  const stepping = onStepEnd ?? onStepFinish;
  const sdkOptions: UIMessageStreamOptions<UI_MESSAGE> = {
    ...options,
    // the parts the runtime added are not the caller's to describe
    messageMetadata: messageMetadata === undefined ? undefined : ({ part }) => (injected.has(part) ? undefined : messageMetadata({ part })),
    onEnd:
      ending === undefined
        ? undefined
        : (event) => ending({ ...event, responseMessage: withData(event.responseMessage), messages: event.messages.map(withData) }),
    onStepEnd:
      stepping === undefined
        ? undefined
        : (event) => stepping({ ...event, responseMessage: withData(event.responseMessage), messages: event.messages.map(withData) }),
  };
  delete sdkOptions.onFinish;
  delete sdkOptions.onStepFinish;
  const injected = new WeakSet<object>();
  const withDecisions = stream.pipeThrough(injectDecisions<TOOLS>(source, options.tools, injected));
  return toUIMessageStream<TOOLS, UI_MESSAGE>({ stream: withDecisions, ...sdkOptions }).pipeThrough(
    new TransformStream<InferUIMessageChunk<UI_MESSAGE>, InferUIMessageChunk<UI_MESSAGE>>({
      transform(chunk, controller) {
        controller.enqueue((dataChunk(chunk) ?? chunk) as InferUIMessageChunk<UI_MESSAGE>);
      },
    }),
  );
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

/**
 * Adds, after each part about a tool call, the decisions recorded for it
 * since (one custom part each, which the SDK converts and the caller's
 * stream turns into a data part). A resumed call's decision carries the
 * person's answer; a call that runs with their edit is shown with it first.
 */
function injectDecisions<TOOLS extends ToolSet>(
  source: DecisionSource,
  tools: ToolSet | undefined,
  injected: WeakSet<object>,
): TransformStream<TextStreamPart<TOOLS>, TextStreamPart<TOOLS>> {
  const redact = redactionForPeople(source.snapshot);
  // records not shown yet, by call: each record is read once, as the run writes it
  const unshown = new Map<string, DecisionRecord[]>();
  let read = 0;
  const takeRecords = (toolCallId: string): DecisionRecord[] => {
    for (; read < source.decisions.length; read++) {
      const record = source.decisions[read];
      if (record?.toolCallId === undefined || record.lifecycle !== 'beforeToolCall') continue;
      const waiting = unshown.get(record.toolCallId);
      if (waiting === undefined) unshown.set(record.toolCallId, [record]);
      else waiting.push(record);
    }
    const records = unshown.get(toolCallId) ?? [];
    unshown.delete(toolCallId);
    return records;
  };
  const answered = new Set<ResumedApproval>();
  let resuming = true;
  let sequence = 0;
  const add = (controller: TransformStreamDefaultController<TextStreamPart<TOOLS>>, part: object) => {
    injected.add(part);
    controller.enqueue(part as TextStreamPart<TOOLS>);
  };
  return new TransformStream({
    transform(part, controller) {
      if (part.type === 'start-step') resuming = false;
      const toolCallId = toolCallIdOf(part);
      // a decision follows the call once its input is complete, never between its input's chunks
      if (toolCallId === undefined || isInputChunk(part)) {
        controller.enqueue(part);
        return;
      }
      // approved calls run (or are denied) before the first step: their parts carry the answer
      const answer = resuming ? source.resume.answers.find((item) => item.toolCallId === toolCallId && !answered.has(item)) : undefined;
      const edited = answer?.edit !== undefined && source.resume.approved.get(toolCallId) === answer ? { value: answer.input } : undefined;
      if (edited !== undefined && (part.type === 'tool-result' || part.type === 'tool-error')) {
        // the tool part shows the arguments that ran, not the model's
        const dynamic = getOwn(tools, answer?.toolName ?? '')?.type === 'dynamic';
        add(controller, {
          type: 'tool-call',
          toolCallId,
          toolName: answer?.toolName,
          input: edited.value,
          ...(dynamic ? { dynamic } : {}),
        });
      }
      controller.enqueue(part);
      const records = takeRecords(toolCallId);
      if (answer !== undefined) answered.add(answer);
      const shown = source.snapshot.decisionParts === 'all' ? records.length > 0 || answer !== undefined : acted(records, edited);
      if (!shown) return;
      const decided = interventionDataOf({
        toolCallId,
        toolName: answer?.toolName ?? records[0]?.toolName ?? 'unknown',
        records,
        answer,
        input: part.type === 'tool-result' || part.type === 'tool-error' ? edited : undefined,
      });
      // people see nothing the registered redaction rules remove
      const data = redact === undefined ? decided : (redactData(decided, redact) as InterventionData);
      add(controller, {
        type: 'custom',
        kind: KIND,
        providerMetadata: { [NAMESPACE]: { id: `${source.runId ?? 'run'}-${sequence++}`, data: data as never } },
      });
    },
  });
}

/** Whether a part streams a call's input (its decision waits for the input to be complete). */
function isInputChunk(part: TextStreamPart<ToolSet>): boolean {
  return part.type === 'tool-input-start' || part.type === 'tool-input-delta' || part.type === 'tool-input-end';
}

/**
 * Whether a handler acted on the call: an enforced deny, guide, confirm or
 * transform, a failure, a proceed that says why (a remembered answer, a
 * replayed approval), or a person's edit it runs with. A call every handler
 * let through, and a person's plain answer (the SDK's own parts show it),
 * get no part.
 */
function acted(records: readonly DecisionRecord[], edited: { readonly value: unknown } | undefined): boolean {
  if (edited !== undefined) return true;
  return records.some(
    (record) =>
      record.error !== undefined ||
      (record.enforced && record.action !== 'proceed') ||
      (record.action === 'proceed' && record.reason !== undefined),
  );
}

/** The tool call a stream part is about. */
function toolCallIdOf(part: TextStreamPart<ToolSet>): string | undefined {
  switch (part.type) {
    case 'tool-input-start':
    case 'tool-input-delta':
    case 'tool-input-end':
      return part.id;
    case 'tool-call':
    case 'tool-result':
    case 'tool-error':
    case 'tool-output-denied':
      return part.toolCallId;
    case 'tool-approval-request':
    case 'tool-approval-response':
      return part.toolCall.toolCallId;
    default:
      return undefined;
  }
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

function asyncIterable<T>(stream: ReadableStream<T>): ReadableStream<T> & AsyncIterable<T> {
  if (typeof (stream as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function') {
    return stream as ReadableStream<T> & AsyncIterable<T>;
  }
  const iterate = async function* (): AsyncGenerator<T> {
    const reader = stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    } finally {
      reader.releaseLock();
    }
  };
  return Object.assign(stream, { [Symbol.asyncIterator]: iterate });
}
