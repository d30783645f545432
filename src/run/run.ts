import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { BeforeInvocationEvent } from '../actions/intervention-events.ts';
import { answersIn } from '../answers/answers-in.ts';
import { ApprovalSession } from '../approvals/approval-session.ts';
import { DecisionLog } from '../handlers/decision-log.ts';
import type { EvaluationSinks } from '../handlers/verdict.ts';
import type { ChatResponse, RunStatus } from '../hooks/hook-types.ts';
import { notifyObservers, runObservers } from '../hooks/run-hooks.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { userMessage } from '../messages/user-message.ts';
import type { StreamTimeouts } from '../model/stream-timeouts.ts';
import type { RedactedOriginals } from '../redaction/redacted-originals.ts';
import type { ToolListings } from '../tools/trusted-annotations.ts';
import { type CallPlan, callPlan } from './call-plan.ts';
import { HistoryPatch } from './history-patch.ts';
import type { InterventionsReport } from './interventions-report.ts';
import type { InvocationChanges } from './invocation-changes.ts';
import { reportRecords } from './report-records.ts';
import type { RunInput } from './run-input.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';
import { Step } from './step.ts';

/** The run an error was raised in, for integrations that only see the error (an agent's `onError`). */
export const runOfError = new WeakMap<object, Run>();

const NO_CONTEXT: Context = Object.freeze({});

/**
 * One `generateText` / `streamText` / agent call made through the runtime:
 * its id and records, where the loop is (the current {@link Step}), what its
 * input resumes, and how it ends (exactly one of `onChatDone`,
 * `onChatError`, `onChatAbort`). A detached run (`Run.detached`) serves the
 * hooks and handlers used without a run around them (`interventions.middleware`,
 * `wrapTools`): no id, no end, and a throw simply propagates.
 */
export class Run {
  /** A unique id per run, for handlers keeping per-run state; `undefined` when detached. */
  readonly runId: string | undefined;
  readonly snapshot: RuntimeSnapshot;
  /** The run's records, in order (a plain proceed's built when they are read). */
  private readonly log: DecisionLog;
  /** The calls the SDK's approval point is deciding (not held, their decision not settled yet): made at the first. */
  deciding: Set<string> | undefined;
  readonly report: InterventionsReport;
  /** Where the run's evaluations put their records (see `evaluate`). */
  readonly sinks: EvaluationSinks;
  readonly tools: ToolSet | undefined;
  /** The run's instructions, as given. */
  readonly instructions: BeforeInvocationEvent['instructions'];
  /** The caller's abort signal: the run has none of its own (tools and models get what they would without it). */
  readonly abortSignal: AbortSignal | undefined;
  /** The input messages, as given (a string prompt as one user message). */
  readonly input: readonly ModelMessage[];
  /**
   * Human approval in this run (see {@link ApprovalSession}): open when the
   * input carries answers, or once the run needs one ({@link openApprovals});
   * `undefined` otherwise, and then no approval code runs.
   */
  approvals: ApprovalSession | undefined;
  /** What the run adds to the history the SDK keeps (injected messages). */
  readonly patch = new HistoryPatch();
  /** The blocks redaction changed, given back to the provider as it sent them in the run's later requests (made at the first). */
  redactedOriginals: RedactedOriginals | undefined = undefined;
  /** Told when a provider stream throws, which the SDK reports to no callback; set only when an end observer listens. */
  readonly streamFailed: ((error: unknown) => Promise<void>) | undefined;
  runtimeContext: Context;
  /** The failure that ends the run, recorded where the SDK swallowed it (written by {@link fail} only). */
  failed: { readonly error: unknown } | undefined = undefined;
  /** Told when a `prepareStep` replaces the runtime context. */
  onRuntimeContext: ((context: Context) => void) | undefined = undefined;
  /** The current step: before step 0, the resume of the input's approved calls. */
  step: Step;
  /** What the `beforeInvocation` handlers changed. */
  invocation: InvocationChanges | undefined = undefined;
  /** What the run knows of its tools' listings (the tools handlers see, the label to write), from its first tool decision on. */
  listings: ToolListings | undefined = undefined;
  /** When its tool calls are decided (see {@link CallPlan}): worked out once, as the run is made. */
  readonly plan: CallPlan;
  /** Chunk timeouts the run applies itself, to streams it holds. */
  streamTimeouts: StreamTimeouts | undefined = undefined;

  /** Whether the run serves hooks and handlers used without a run around them (made by {@link Run.detached}). */
  readonly isDetached: boolean;
  /** Whether the call streams (`streamText`, an agent); `generateText` does not. */
  readonly streaming: boolean;
  /** Where starting the run is (see `ensureStarted`): `'done'`, under way, or not begun. */
  startup: Promise<void> | 'done' | undefined = undefined;
  /** Where the run's approved calls execute once: what its session is opened with. */
  readonly approvalLedger: ApprovalLedger | undefined;
  private ended = false;

  constructor({
    snapshot,
    input,
    approvalLedger,
    detached = false,
    streaming = true,
  }: {
    snapshot: RuntimeSnapshot;
    input: RunInput;
    /** Where approved calls are executed once (replays get the outcome); `undefined`: not kept. */
    approvalLedger?: ApprovalLedger | undefined;
    detached?: boolean;
    streaming?: boolean;
  }) {
    this.snapshot = snapshot;
    const log = (this.log = new DecisionLog(snapshot.policyVersion));
    this.sinks = { records: log, policyVersion: snapshot.policyVersion };
    this.report = {
      get decisions() {
        return log.records;
      },
    };
    this.isDetached = detached;
    this.streaming = streaming;
    this.runId = detached ? undefined : crypto.randomUUID();
    this.tools = input.tools;
    this.plan = callPlan(snapshot, input.tools, detached);
    this.runtimeContext = input.runtimeContext ?? NO_CONTEXT;
    this.abortSignal = input.abortSignal;
    this.instructions = input.instructions ?? input.system;
    this.input = input.messages ?? (typeof input.prompt === 'string' ? [userMessage(input.prompt)] : (input.prompt ?? []));
    this.approvalLedger = approvalLedger;
    this.approvals = answersIn(this.input) ? this.openApprovals() : undefined;
    this.step = new Step(undefined, this.messages as ModelMessage[]);
    const { hooks } = snapshot;
    const listens = hooks.onChatError.length > 0 || hooks.onChatAbort.length > 0 || hooks.onChatDone.length > 0;
    this.streamFailed = listens && !detached ? (error) => this.onStreamFailed(error) : undefined;
  }

  /**
   * The run of hooks and handlers used outside the runtime's wrappers;
   * `tools`: the tools it guards (tools guarded without a run), so events
   * carry each call's tool (its annotations) and the tool set.
   */
  static detached(snapshot: RuntimeSnapshot, tools?: ToolSet, runtimeContext?: Context): Run {
    return new Run({
      snapshot,
      input: { ...(tools === undefined ? {} : { tools }), ...(runtimeContext === undefined ? {} : { runtimeContext }) },
      detached: true,
    });
  }

  /** The input messages as the run reads them: with stale answers dropped and typed answers decoded, when it has a session. */
  get messages(): readonly ModelMessage[] {
    return this.approvals?.resume.messages ?? this.input;
  }

  /** The run's approval session, opened now if it has none. */
  openApprovals(): ApprovalSession {
    this.approvals ??= new ApprovalSession({
      messages: this.input,
      wording: this.snapshot.wording,
      tools: this.tools,
      ledger: this.approvalLedger,
      runtimeSecret: this.snapshot.approvalSecret,
      previousSecrets: this.snapshot.previousApprovalSecrets,
      record: (record, input) => this.record(record, input),
      inbox: this.snapshot.approvalInbox,
      forPeople: this.snapshot.handlers.forPeople,
    });
    return this.approvals;
  }

  /** The step number, as hooks see it (`undefined` before step 0, and when detached). */
  get stepNumber(): number | undefined {
    return this.step.number;
  }

  /** Runs work whose throw must end the run; the error is recorded (see {@link fail}) and rethrown. */
  async critical<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  /**
   * Records a failure raised where the SDK may swallow it (inside a tool, a
   * callback, a repair): the run ends with it at the next point it controls
   * (its next `prepareStep`, or when the SDK call returns).
   */
  fail(error: unknown): void {
    this.noteError(error);
    // the caller aborting is an abort, not a failure of the run
    if (this.isDetached || this.failed !== undefined || this.abortSignal?.aborted) return;
    this.failed = { error };
  }

  /** Ends the run with its recorded failure, if any: reports it and throws it. */
  async throwIfFailed(): Promise<void> {
    if (this.failed === undefined) return;
    throw await this.end(this.failed.error);
  }

  /** Every handler evaluation of the run so far, in order (the array `result.interventions.decisions` is). */
  get decisions(): DecisionRecord[] {
    return this.log.records;
  }

  /** Remembers that `error` was raised in this run. */
  noteError(error: unknown): void {
    if (!this.isDetached && error !== null && typeof error === 'object') runOfError.set(error, this);
  }

  /**
   * Keeps a record the runtime wrote itself (not a handler's) and reports it
   * (`reportRecords`); `input`: the arguments of the call it decided.
   */
  async record(record: DecisionRecord, input?: unknown): Promise<void> {
    const { policyVersion } = this.snapshot;
    const kept = policyVersion === undefined || record.policyVersion !== undefined ? record : { ...record, policyVersion };
    this.log.push(kept);
    await reportRecords(this.snapshot, [kept], { runId: this.runId, runtimeContext: this.runtimeContext, input });
  }

  /** Tells the `onStatus` hooks what the run is doing. */
  status(status: RunStatus): void | Promise<void> {
    const hooks = this.snapshot.hooks.onStatus;
    if (hooks.length > 0) return runObservers(hooks, { status, runtimeContext: this.runtimeContext, runId: this.runId });
  }

  /** Fires `onMessage` for each message, in order. */
  async commitMessages(messages: readonly ModelMessage[]): Promise<void> {
    const hooks = this.snapshot.hooks.onMessage;
    if (hooks.length === 0) return;
    for (const message of messages) await runObservers(hooks, { message, runId: this.runId });
  }

  /**
   * The run completed: `onChatDone` (a throw there reports `onChatError` and
   * is rethrown), told the response `responseOf` makes (only then: a
   * generated result's `responseMessages` are gathered from every step
   * each time they are read).
   */
  async complete(responseOf: () => ChatResponse): Promise<void> {
    if (this.ended) return;
    if (this.failed !== undefined) throw this.failed.error;
    const hooks = this.snapshot.hooks.onChatDone;
    if (hooks.length > 0) await runObservers(hooks, { response: responseOf(), runId: this.runId });
    this.ended = true;
  }

  /**
   * The run failed or was aborted: fires `onChatAbort` or `onChatError` once
   * and returns the error the caller should see (a hook's own error wins
   * over the abort it caused).
   */
  async end(error: unknown): Promise<unknown> {
    const actual = this.failed?.error ?? error;
    if (this.ended) return actual;
    this.ended = true;
    const { hooks } = this.snapshot;
    if (this.failed === undefined && this.abortSignal?.aborted) {
      await notifyObservers(hooks.onChatAbort, { reason: this.abortSignal.reason, runId: this.runId });
    } else {
      await notifyObservers(hooks.onChatError, { error: actual, runId: this.runId });
    }
    return actual;
  }

  /** `onChatAbort` for a stream that reported its abort itself. */
  async aborted(reason: unknown): Promise<void> {
    if (this.failed !== undefined) {
      await this.end(this.failed.error);
      return;
    }
    if (this.ended) return;
    this.ended = true;
    await notifyObservers(this.snapshot.hooks.onChatAbort, { reason, runId: this.runId });
  }

  private async onStreamFailed(error: unknown): Promise<void> {
    if (this.abortSignal?.aborted) return; // an abort, reported by the SDK's onAbort
    this.noteError(error);
    await this.end(error);
  }
}
