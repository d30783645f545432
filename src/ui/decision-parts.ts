import type { TextStreamPart, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import type { InterventionData } from '../client/intervention-data.ts';
import { redactData } from '../redaction/redact-data.ts';
import { getOwn } from '../util/get-own.ts';
import { type DecisionSource, KIND, NAMESPACE } from './decision-source.ts';
import { interventionDataOf } from './intervention-data-of.ts';

/**
 * Adds, after each part about a tool call, the decisions recorded for it
 * since (one custom part each, which the SDK converts and the caller's
 * stream turns into a data part). A resumed call's decision carries the
 * person's answer; a call that runs with their edit is shown with it first.
 */
export function decisionParts<TOOLS extends ToolSet>(
  source: DecisionSource,
  tools: ToolSet | undefined,
  injected: WeakSet<object>,
): Transformer<TextStreamPart<TOOLS>, TextStreamPart<TOOLS>> {
  const redact = source.snapshot.handlers.forPeople;
  // records not shown yet, by call: each record is read once, as the run writes it
  const unshown = new Map<string, DecisionRecord[]>();
  let read = 0;
  const takeRecords = (toolCallId: string): DecisionRecord[] => {
    const { decisions } = source;
    for (; read < decisions.length; read++) {
      const record = decisions[read];
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
  // the calls whose input was streamed (their UI part exists before the call is complete)
  const streamedInputs = new Set<string>();
  let resuming = true;
  let heldStep = false;
  let sequence = 0;
  const add = (controller: TransformStreamDefaultController<TextStreamPart<TOOLS>>, part: object) => {
    injected.add(part);
    controller.enqueue(part as TextStreamPart<TOOLS>);
  };
  const decisionOf = (
    toolCallId: string,
    toolName: string,
    records: readonly DecisionRecord[],
    answer?: ResumedApproval,
    input?: { readonly value: unknown },
  ) => {
    const decided = interventionDataOf({ toolCallId, toolName, records, answer, input, requester: source.runtimeContext });
    // people see nothing the registered redaction rules remove
    const data = redact === undefined ? decided : (redactData(decided, redact) as InterventionData);
    return {
      type: 'custom',
      kind: KIND,
      providerMetadata: { [NAMESPACE]: { id: `${source.runId ?? 'run'}-${sequence++}`, data: data as never } },
    };
  };
  return {
    transform(part, controller) {
      // a held turn calls no model: its step is no step for people, whose last step stays the one the request is in
      // (useChat's lastAssistantMessageIsCompleteWithApprovalResponses reads that step)
      if (part.type === 'finish-step' && heldStep) {
        heldStep = false;
        return;
      }
      if (part.type === 'start-step' && resuming) {
        resuming = false;
        const held = source.approvals?.held ?? [];
        heldStep = held.length > 0;
        if (!heldStep) controller.enqueue(part);
        // an answer held for the right person: its request is pending again, with what it waits for
        for (const { request, call } of held) {
          add(controller, {
            type: 'tool-approval-request',
            approvalId: request.approvalId,
            toolCall: { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input },
            ...(request.reason === undefined ? {} : { reason: request.reason }),
            ...(request.signature === undefined ? {} : { signature: request.signature }),
          });
          add(controller, decisionOf(call.toolCallId, call.toolName, takeRecords(call.toolCallId)));
        }
        return;
      }
      if (part.type === 'start-step') resuming = false;
      if (part.type === 'tool-approval-request') source.approvals?.finishPart(part);
      if (part.type === 'tool-input-start') streamedInputs.add(part.id);
      const toolCallId = toolCallIdOf(part);
      // a decision follows the call once its input is complete, never between its input's chunks
      if (toolCallId === undefined || isInputChunk(part)) {
        controller.enqueue(part);
        return;
      }
      // approved calls run (or are denied) before the first step: their parts carry the answer
      const answer = resuming
        ? source.approvals?.resume.answers.find((item) => item.toolCallId === toolCallId && !answered.has(item))
        : undefined;
      const edited =
        answer?.edit !== undefined && source.approvals?.resume.approved.get(toolCallId) === answer ? { value: answer.input } : undefined;
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
      // a call the SDK's approval point is still deciding: its decision comes with its next part (a request, a denial, a result)
      if (part.type === 'tool-call' && source.deciding?.has(toolCallId) === true) {
        controller.enqueue(part);
        return;
      }
      const records = takeRecords(toolCallId);
      if (part.type === 'tool-call' && stopped(records) && isClientCall(part, tools ?? source.tools)) {
        // a stopped call to a tool the app's client runs: the client is shown its input, never asked to run it
        for (const input of inputOnly(part, streamedInputs.has(toolCallId))) add(controller, input);
      } else {
        controller.enqueue(part);
      }
      if (answer !== undefined) answered.add(answer);
      const shown = source.snapshot.decisionParts === 'all' ? records.length > 0 || answer !== undefined : acted(records, edited);
      if (!shown) return;
      const toolName = answer?.toolName ?? records[0]?.toolName ?? 'unknown';
      add(controller, decisionOf(toolCallId, toolName, records, answer, decidedInput(part, answer, edited)));
    },
  };
}

/**
 * The arguments a person's edit decided, for the call's decision: those it
 * ran with (its result or error), or those refused (a handler's deny, the
 * tool's schema), which the tool part does not show.
 */
function decidedInput(
  part: TextStreamPart<ToolSet>,
  answer: ResumedApproval | undefined,
  edited: { readonly value: unknown } | undefined,
): { readonly value: unknown } | undefined {
  if (part.type === 'tool-result' || part.type === 'tool-error') return edited;
  if (part.type === 'tool-output-denied' && answer?.edit !== undefined) return { value: answer.edit.value };
  return undefined;
}

/** Whether a call's records stop it: an enforced deny or guide (a failure failing closed is a deny). */
function stopped(records: readonly DecisionRecord[]): boolean {
  return records.some((record) => record.enforced && (record.action === 'deny' || record.action === 'guide'));
}

/** Whether a call is one the app's client runs: a valid call of a tool without `execute` (provider-executed tools aside). */
function isClientCall(part: Extract<TextStreamPart<ToolSet>, { type: 'tool-call' }>, tools: ToolSet | undefined): boolean {
  const tool = getOwn(tools, part.toolName);
  return (
    tool !== undefined && tool.execute === undefined && tool.type !== 'provider' && part.providerExecuted !== true && part.invalid !== true
  );
}

/**
 * A call's input without the call: the UI chunk the SDK makes of a
 * `tool-call` part (`tool-input-available`) is what a chat client runs a
 * client-side tool on (`useChat`'s `onToolCall`), so a stopped call shows
 * its input as streamed input instead (nothing more when it was streamed),
 * and its tool part still ends with the denial.
 */
function inputOnly(part: Extract<TextStreamPart<ToolSet>, { type: 'tool-call' }>, streamed: boolean): object[] {
  if (streamed) return [];
  const { toolCallId: id, toolName } = part;
  return [
    {
      type: 'tool-input-start',
      id,
      toolName,
      ...(part.dynamic === true ? { dynamic: true } : {}),
      ...(part.title === undefined ? {} : { title: part.title }),
      ...(part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata }),
      ...(part.toolMetadata === undefined ? {} : { toolMetadata: part.toolMetadata }),
    },
    { type: 'tool-input-delta', id, delta: JSON.stringify(part.input) },
    { type: 'tool-input-end', id },
  ];
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
