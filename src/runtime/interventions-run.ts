import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { InvocationDeniedError } from '../errors/invocation-denied-error.ts';
import { InvalidActionError } from '../errors/invalid-action-error.ts';
import type { DecisionRecord } from '../handlers/decision-record.ts';
import type {
  RecordSubject,
  Verdict,
} from '../handlers/evaluate-interventions.ts';
import type {
  BeforeInvocationEvent,
  InterventionEvent,
  ToolCallInfo,
} from '../handlers/intervention-events.ts';
import type { ChatResponse, RunStatus } from '../hooks/hook-types.ts';
import { notifyObservers, runObservers } from '../hooks/run-hooks.ts';
import { evaluateAndReport, type EvaluationOptions } from './evaluate-and-report.ts';
import { getOwn } from '../util/get-own.ts';
import { userMessage } from '../util/user-message.ts';
import { decideToolCalls, gateToolCalls } from './decide-tool-calls.ts';
import { cloneInvocationEvent, cloneToolCallEvent } from './drafts.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { ApprovalLedger } from './approval-ledger.ts';
import { dropStaleApprovals, type DroppedApproval } from './drop-stale-approvals.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';
import type { ToolScope } from './tool-scope.ts';

/**
 * The run an error was raised in (by a hook, a handler or the provider), for
 * integrations that only see the error (an agent's `onError`).
 */
export const runOfError = new WeakMap<object, InterventionsRun>();

/**
 * What `result.interventions` holds: the run's decision records. For
 * `streamText` the array fills as the stream runs; read it once the stream
 * has finished.
 *
 * @example
 * ```ts
 * const result = interventions.streamText({ model, tools, messages });
 * await result.consumeStream();
 * const report: InterventionsReport = result.interventions;
 * console.log(report.decisions.map((record) => `${record.handler}: ${record.action}`));
 * ```
 */
export interface InterventionsReport {
  /** Every handler evaluation of the run, in order. Grows while a stream runs. */
  readonly decisions: readonly DecisionRecord[];
}

/** What the run's `beforeInvocation` handlers changed. */
export interface InvocationChanges {
  readonly messages: ModelMessage[] | undefined;
  readonly instructions: BeforeInvocationEvent['instructions'] | undefined;
  readonly instructionsChanged: boolean;
  readonly removedTools: ReadonlySet<string>;
  readonly replacedTools: ReadonlyMap<string, ToolSet[string]>;
}

/** The options of one run, as far as the run needs to read them. */
export interface RunInput {
  readonly tools?: ToolSet | undefined;
  readonly prompt?: string | ModelMessage[] | undefined;
  readonly messages?: ModelMessage[] | undefined;
  readonly instructions?: BeforeInvocationEvent['instructions'];
  readonly system?: BeforeInvocationEvent['instructions'];
  readonly runtimeContext?: Context | undefined;
  readonly abortSignal?: AbortSignal | undefined;
}

/**
 * The state of one `generateText` / `streamText` call made through the
 * runtime: where the loop is (step, messages, context), the decisions taken
 * for its tool calls, and how it ends. Chat observers fire exactly once.
 */
export class InterventionsRun implements ToolScope {
  /** A unique id per run, for handlers keeping per-run state. */
  readonly runId: string = crypto.randomUUID();
  readonly snapshot: RuntimeSnapshot;
  readonly decisions: DecisionRecord[] = [];
  readonly report: InterventionsReport;
  readonly tools: ToolSet | undefined;
  readonly inputMessages: readonly ModelMessage[];
  /** Tool calls the input history approves, by id: they are re-checked, not re-asked. */
  readonly approvedToolCalls: ReadonlyMap<
    string,
    ToolCallInfo & { readonly approvalId: string; readonly reason: string | undefined }
  >;
  /** Approval responses of the input that answered nothing a human may answer; they are dropped. */
  readonly droppedApprovals: readonly DroppedApproval[];
  /** Tool calls a human refused in the input history, by id, with the reason they gave. */
  readonly rejectedToolCalls: ReadonlyMap<string, ToolCallInfo & { readonly reason: string | undefined }>;
  /**
   * Messages the run injected (steering, follow-up) that the SDK keeps out of
   * its response messages, by the step they follow (-1: before step 0).
   */
  readonly injections: Array<{ readonly afterStep: number; readonly messages: readonly ModelMessage[] }> = [];
  readonly userAbortSignal: AbortSignal | undefined;
  /** The run's instructions, as given. */
  readonly instructions: BeforeInvocationEvent['instructions'];
  /** The signal the SDK gets: the caller's, merged with the run's own. */
  readonly abortSignal: AbortSignal | undefined;

  runtimeContext: Context;
  /** Told when a `prepareStep` replaces the runtime context. */
  onRuntimeContext: ((context: Context) => void) | undefined = undefined;
  stepNumber: number | undefined = undefined;
  /** The messages sent in the current step. */
  stepMessages: ModelMessage[];
  /** The tools the model may call in the current step (`undefined`: all). */
  stepActiveTools: readonly string[] | undefined = undefined;
  invocation: InvocationChanges | undefined = undefined;
  /** Whether approval requests are signed (an approval secret is set). */
  signsApprovals = false;

  /** Approval statuses decided before the SDK asks `toolApproval`, by call id. */
  readonly toolDecisions = new Map<string, ApprovalDecision>();
  /** Calls the model layer already evaluated (whatever the outcome). */
  readonly decided = new Set<string>();
  /** Replacement texts for the errors of invalid or unknown tool calls, by call id. */
  readonly errorRewrites = new Map<string, string>();
  private readonly inputOverrides = new Map<string, unknown>();
  private readonly approvalLedger: ApprovalLedger | undefined;
  private readonly controller: AbortController | undefined;
  private started: Promise<void> | undefined;
  private startedUp = false;
  private failure: { readonly error: unknown } | undefined;
  private ended = false;

  constructor({
    snapshot,
    input,
    ownAbort,
    approvalLedger,
  }: {
    snapshot: RuntimeSnapshot;
    input: RunInput;
    /** Where used approvals are remembered; `undefined`: not checked. */
    approvalLedger?: ApprovalLedger | undefined;
    /** Whether hooks run where the SDK swallows throws, so the run needs its own abort. */
    ownAbort: boolean;
  }) {
    this.snapshot = snapshot;
    this.report = { decisions: this.decisions };
    this.tools = input.tools;
    this.runtimeContext = input.runtimeContext ?? {};
    const { messages, dropped } = dropStaleApprovals(inputMessagesOf(input));
    this.inputMessages = messages;
    this.droppedApprovals = dropped;
    this.stepMessages = this.inputMessages as ModelMessage[];
    this.approvedToolCalls = answeredToolCalls(this.inputMessages, true);
    this.rejectedToolCalls = answeredToolCalls(this.inputMessages, false);
    this.approvalLedger = approvalLedger;
    this.userAbortSignal = input.abortSignal;
    this.instructions = input.instructions ?? input.system;
    if (ownAbort) {
      this.controller = new AbortController();
      this.abortSignal =
        input.abortSignal === undefined
          ? this.controller.signal
          : AbortSignal.any([input.abortSignal, this.controller.signal]);
    } else {
      this.abortSignal = input.abortSignal;
    }
  }

  /** The error that ended the run from inside the SDK, if any. */
  get failed(): { readonly error: unknown } | undefined {
    return this.failure;
  }

  /** Fires the start observers and `beforeInvocation` once, whoever asks first. */
  ensureStarted(): Promise<void> | undefined {
    if (this.startedUp) return undefined;
    this.started ??= this.critical(() => this.start()).then(() => {
      this.startedUp = true;
    });
    return this.started;
  }

  /**
   * Runs work whose throw must end the run: the error is kept (the wrappers
   * rethrow it) and the run's signal aborts, so the SDK stops at once even
   * where it would otherwise turn the throw into a tool error.
   */
  async critical<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  fail(error: unknown): void {
    this.noteError(error);
    // the caller aborting is an abort, not a failure of the run
    if (this.failure !== undefined || this.userAbortSignal?.aborted) return;
    this.failure = { error };
    this.controller?.abort(error);
  }

  /** A provider stream broke: the SDK reports that to none of its callbacks, so the run ends here. */
  async streamFailed(error: unknown): Promise<void> {
    if (this.userAbortSignal?.aborted) return; // an abort, reported by the SDK's onAbort
    this.noteError(error);
    await this.end(error);
  }

  /** Remembers that `error` was raised in this run. */
  noteError(error: unknown): void {
    if (error !== null && typeof error === 'object') runOfError.set(error, this);
  }

  evaluate<EVENT extends InterventionEvent>(
    options: EvaluationOptions<EVENT>,
  ): Verdict<EVENT> | Promise<Verdict<EVENT>> {
    return evaluateAndReport(this.snapshot, options, this.decisions);
  }

  /** Whether the model layer has tool calls to decide. */
  get decidesToolCalls(): boolean {
    return this.snapshot.handlers.beforeToolCall.length > 0 || this.snapshot.hooks.gateToolCalls.length > 0;
  }

  decideToolCalls(response: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult> {
    return this.critical(() => decideToolCalls(this, response));
  }

  private resumeGated: Promise<Map<string, RegisteredHandler[]>> | undefined;
  private resumeGates(): Promise<Map<string, RegisteredHandler[]>> {
    this.resumeGated ??= (async () => {
      const calls = [...this.approvedToolCalls.values()];
      const perCall = await gateToolCalls(this, calls);
      return new Map(calls.map((call, position) => [call.toolCallId, perCall[position] ?? []]));
    })();
    return this.resumeGated;
  }

  /**
   * `responseMessages` with the injected messages where they were injected,
   * so a caller persisting the conversation keeps them.
   */
  withInjections(
    responseMessages: readonly ModelMessage[],
    steps: ReadonlyArray<{ readonly stepNumber: number; readonly response: { readonly messages: readonly ModelMessage[] } }>,
  ): ModelMessage[] {
    if (this.injections.length === 0) return [...responseMessages];
    const injected = (afterStep: number) =>
      this.injections.filter((injection) => injection.afterStep === afterStep).flatMap((injection) => injection.messages);
    let offset = responseMessages.length - steps.reduce((count, step) => count + step.response.messages.length, 0);
    const merged = [...responseMessages.slice(0, offset), ...injected(-1)];
    for (const step of steps) {
      merged.push(...responseMessages.slice(offset, offset + step.response.messages.length), ...injected(step.stepNumber));
      offset += step.response.messages.length;
    }
    return merged;
  }

  toolFor(toolName: string): Tool | undefined {
    return this.invocation?.replacedTools.get(toolName);
  }

  /**
   * The provider request with what `beforeInvocation` changed in the tools
   * (descriptions of replaced tools), or the request itself.
   */
  prepareRequest(request: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
    const replaced = this.invocation?.replacedTools;
    if (replaced === undefined || replaced.size === 0 || request.tools === undefined) return request;
    let changed = false;
    const tools = request.tools.map((definition) => {
      if (definition.type !== 'function') return definition;
      const description = replaced.get(definition.name)?.description;
      if (typeof description !== 'string' || description === definition.description) return definition;
      changed = true;
      return { ...definition, description };
    });
    return changed ? { ...request, tools } : request;
  }

  inputOverride(toolCallId: string): { readonly input: unknown } | undefined {
    return this.inputOverrides.has(toolCallId)
      ? { input: this.inputOverrides.get(toolCallId) }
      : undefined;
  }

  /**
   * Decides a call the model layer did not see (a resumed approval, or a call
   * the SDK repaired): on resume `confirm` counts as answered and transforms
   * are not applied (the approved arguments are final).
   */
  async decideLate(
    call: ToolCallInfo,
    messages: ModelMessage[],
  ): Promise<ApprovalDecision | undefined> {
    const resumed = this.approvedToolCalls.get(call.toolCallId);
    const approved = resumed !== undefined;
    // a resumed turn's calls meet the gates together, once, like the turn did
    const gated = approved
      ? ((await this.resumeGates()).get(call.toolCallId) ?? [])
      : ((await gateToolCalls(this, [call]))[0] ?? []);
    const verdict = await this.evaluate({
      event: {
        lifecycle: 'beforeToolCall',
        runtimeContext: this.runtimeContext,
        runId: this.runId,
        abortSignal: this.abortSignal,
        stepNumber: this.stepNumber,
        toolCall: call,
        tool: getOwn(this.tools, call.toolName),
        messages,
        approved,
        approval:
          resumed === undefined ? undefined : { approvalId: resumed.approvalId, reason: resumed.reason },
      },
      makeDraft: cloneToolCallEvent,
      subject: this.subject(call),
      frozen: approved,
      handlers: [...gated, ...this.snapshot.handlers.beforeToolCall],
    });
    if ((verdict.type === 'transform' || verdict.type === 'confirm') && verdict.transformed) {
      this.inputOverrides.set(call.toolCallId, verdict.event.toolCall.input);
    }
    const decision = this.approvalDecision(call, verdict);
    if (decision?.type === 'user-approval') {
      await this.status({ type: 'approval-pending', toolCallId: call.toolCallId, toolName: call.toolName, prompt: decision.reason });
    }
    return decision;
  }

  /** Maps a `beforeToolCall` verdict onto the SDK's approval statuses. */
  approvalDecision(
    call: ToolCallInfo,
    verdict: Verdict<InterventionEvent & { lifecycle: 'beforeToolCall' }>,
  ): ApprovalDecision | undefined {
    const { wording } = this.snapshot;
    switch (verdict.type) {
      case 'deny':
        return {
          type: 'denied',
          reason: wording.deniedToolCall({
            toolCall: call,
            reason: verdict.reason,
            handler: verdict.handler,
          }),
        };
      case 'guide':
        return {
          type: 'denied',
          reason: wording.guidedToolCall({
            toolCall: call,
            guidance: verdict.guidance,
          }),
        };
      case 'confirm':
        return { type: 'user-approval', reason: verdict.prompt ?? '' };
      default:
        return undefined;
    }
  }

  subject(call: ToolCallInfo): RecordSubject {
    return {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      ...(this.stepNumber === undefined ? {} : { stepNumber: this.stepNumber }),
    };
  }

  /**
   * Uses up the approval of a resumed call before it runs. A second use (a
   * replayed or duplicated resume request) denies the call, and is recorded.
   */
  async consumeApproval(toolCallId: string): Promise<ApprovalDecision | undefined> {
    const approved = this.approvedToolCalls.get(toolCallId);
    if (approved === undefined || this.approvalLedger === undefined) return undefined;
    if ((await this.approvalLedger.claim(approved.approvalId)).type === 'claimed') return undefined;
    const reason = 'This approval was already used; the call is not executed again.';
    const record: DecisionRecord = {
      handler: 'approval-ledger',
      lifecycle: 'beforeToolCall',
      action: 'deny',
      reason,
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      ...this.subject(approved),
    };
    this.decisions.push(record);
    const hooks = this.snapshot.hooks.onDecision;
    if (hooks.length > 0) await runObservers(hooks, { record, runId: this.runId });
    return {
      type: 'denied',
      reason: this.snapshot.wording.deniedToolCall({ toolCall: approved, reason, handler: 'approval-ledger' }),
    };
  }

  /** Tells the `onStatus` hooks what the run is doing. */
  async status(status: RunStatus): Promise<void> {
    const hooks = this.snapshot.hooks.onStatus;
    if (hooks.length > 0) await runObservers(hooks, { status, runtimeContext: this.runtimeContext, runId: this.runId });
  }

  /** Fires `onMessage` for each message, in order. */
  async commitMessages(messages: readonly ModelMessage[]): Promise<void> {
    const hooks = this.snapshot.hooks.onMessage;
    if (hooks.length === 0) return;
    for (const message of messages) await runObservers(hooks, { message, runId: this.runId });
  }

  /** The run completed: `onChatDone` (a throw there reports `onChatError` and is rethrown). */
  async complete(response: ChatResponse): Promise<void> {
    if (this.ended) return;
    if (this.failure !== undefined) throw this.failure.error;
    const hooks = this.snapshot.hooks.onChatDone;
    if (hooks.length > 0) await runObservers(hooks, { response, runId: this.runId });
    this.ended = true;
  }

  /**
   * The run failed or was aborted: fires `onChatAbort` or `onChatError` once
   * and returns the error the caller should see (a hook's own error wins
   * over the abort it caused).
   */
  async end(error: unknown): Promise<unknown> {
    const actual = this.failure?.error ?? error;
    if (this.ended) return actual;
    this.ended = true;
    const { hooks } = this.snapshot;
    if (this.failure === undefined && this.userAbortSignal?.aborted) {
      await notifyObservers(hooks.onChatAbort, { reason: this.userAbortSignal.reason, runId: this.runId });
    } else {
      await notifyObservers(hooks.onChatError, { error: actual, runId: this.runId });
    }
    return actual;
  }

  /** `onChatAbort` for a stream that reported its abort itself. */
  async aborted(reason: unknown): Promise<void> {
    if (this.failure !== undefined) {
      await this.end(this.failure.error);
      return;
    }
    if (this.ended) return;
    this.ended = true;
    await notifyObservers(this.snapshot.hooks.onChatAbort, { reason, runId: this.runId });
  }

  private async start(): Promise<void> {
    const { hooks, handlers } = this.snapshot;
    for (const { toolCallId, toolName, reason } of this.droppedApprovals) {
      const record: DecisionRecord = {
        handler: 'approval-ledger',
        lifecycle: 'beforeToolCall',
        action: 'deny',
        reason: `An approval response was ignored: ${reason}.`,
        enforced: true,
        mode: 'enforce',
        durationMs: 0,
        toolCallId,
        toolName,
      };
      this.decisions.push(record);
      if (hooks.onDecision.length > 0) await runObservers(hooks.onDecision, { record, runId: this.runId });
    }
    if (hooks.onChatStart.length > 0) {
      await runObservers(hooks.onChatStart, {
        messages: this.inputMessages,
        runtimeContext: this.runtimeContext,
        runId: this.runId,
        abortSignal: this.abortSignal,
      });
    }
    await this.commitMessages(newTurnOf(this.inputMessages));
    if (handlers.beforeInvocation.length > 0) await this.beforeInvocation();
  }

  private async beforeInvocation(): Promise<void> {
    const tools = this.tools ?? {};
    const event: BeforeInvocationEvent = {
      lifecycle: 'beforeInvocation',
      runtimeContext: this.runtimeContext,
      runId: this.runId,
      abortSignal: this.abortSignal,
      messages: [...this.inputMessages],
      instructions: this.instructions,
      tools,
    };
    const verdict = await this.evaluate({
      event,
      makeDraft: cloneInvocationEvent,
      subject: {},
    });
    if (verdict.type === 'deny') {
      throw new InvocationDeniedError({ handlerName: verdict.handler, reason: verdict.reason });
    }

    const draft = verdict.event;
    let messages = verdict.transformed ? draft.messages : undefined;
    if (verdict.guidance.length > 0) {
      messages = [
        ...(messages ?? this.inputMessages),
        userMessage(this.snapshot.wording.modelGuidance({ guidance: verdict.guidance })),
      ];
    }
    const removedTools = new Set<string>();
    const replacedTools = new Map<string, ToolSet[string]>();
    if (verdict.transformed) {
      for (const name of Object.keys(tools)) {
        const next = getOwn(draft.tools, name);
        if (next === undefined) removedTools.add(name);
        else if (next !== tools[name]) replacedTools.set(name, next);
      }
      for (const name of Object.keys(draft.tools)) {
        if (getOwn(tools, name) === undefined) {
          const handler = this.decisions.findLast(
            (record) => record.lifecycle === 'beforeInvocation' && record.action === 'transform',
          )?.handler;
          throw new InvalidActionError({
            handlerName: handler ?? 'unknown',
            lifecycle: 'beforeInvocation',
            received: draft.tools,
            message: `A beforeInvocation transform${handler ? ` of "${handler}"` : ''} added the tool "${name}": transforms may remove tools or edit them, but new tools must be passed in \`tools\`.`,
          });
        }
      }
    }
    const instructionsChanged = verdict.transformed && draft.instructions !== this.instructions;
    this.invocation = {
      messages,
      instructions: instructionsChanged ? draft.instructions : undefined,
      instructionsChanged,
      removedTools,
      replacedTools,
    };
  }
}

/** An approval status our handlers chose for a call. */
export type ApprovalDecision =
  | { readonly type: 'denied'; readonly reason: string }
  | { readonly type: 'user-approval'; readonly reason: string };

function inputMessagesOf(input: RunInput): ModelMessage[] {
  if (input.messages !== undefined) return input.messages;
  if (typeof input.prompt === 'string') return [userMessage(input.prompt)];
  return input.prompt ?? [];
}

/** The messages after the last assistant message: what this call adds. */
function newTurnOf(messages: readonly ModelMessage[]): readonly ModelMessage[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'assistant') return messages.slice(index + 1);
  }
  return messages;
}

/** The tool calls an approval response in the last (tool) message approves (or refuses), by id. */
function answeredToolCalls(
  messages: readonly ModelMessage[],
  approved: boolean,
): ReadonlyMap<string, ToolCallInfo & { readonly approvalId: string; readonly reason: string | undefined }> {
  const calls = new Map<string, ToolCallInfo & { readonly approvalId: string; readonly reason: string | undefined }>();
  const last = messages.at(-1);
  if (last?.role !== 'tool') return calls;
  const answers = new Map<string, string | undefined>();
  for (const part of last.content) {
    if (part.type === 'tool-approval-response' && part.approved === approved) answers.set(part.approvalId, part.reason);
  }
  if (answers.size === 0) return calls;
  const approvalOf = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && answers.has(part.approvalId)) {
        approvalOf.set(part.toolCallId, part.approvalId);
      }
    }
  }
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      const approvalId = part.type === 'tool-call' ? approvalOf.get(part.toolCallId) : undefined;
      if (part.type === 'tool-call' && approvalId !== undefined) {
        calls.set(part.toolCallId, {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          approvalId,
          reason: answers.get(approvalId),
        });
      }
    }
  }
  return calls;
}

