import type { ModelMessage, StreamTextTransform, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { Wording } from '../handlers/wording.ts';
import { applyApprovalEdits } from './apply-approval-edits.ts';
import type { ApprovalLedger } from './approval-ledger.ts';
import type { ApprovalSecret, ApprovalState } from './approval-state.ts';
import { ANSWER_HANDLER, unreadable } from './decode-answers.ts';
import type { DroppedApproval } from './drop-stale-approvals.ts';
import { foreignSignatureTransform, stripForeignSignatures, stripForeignSignaturesIn } from './own-approval-requests.ts';
import { type Resume, type ResumedApproval, readResume } from './read-resume.ts';
import { editableHistory, replaysOverriddenAnswer, resumeReadsLedger } from './replay-used-approvals.ts';

/** What an approval session is opened with. */
export interface ApprovalSessionOptions {
  /** The request's history, as the caller gave it. */
  readonly messages: readonly ModelMessage[];
  readonly wording: Wording;
  readonly tools: ToolSet | undefined;
  readonly ledger: ApprovalLedger | undefined;
  readonly runtimeSecret: ApprovalSecret;
  /** The runtime's previous keys: approvals they signed still verify (and are signed again with `runtimeSecret`). */
  readonly previousSecrets?: readonly ApprovalSecret[];
  readonly record: (record: DecisionRecord, input?: unknown) => Promise<void>;
}

/** The SDK options a session owns in one call (see {@link ApprovalSession.sdkOptions}). */
export interface ApprovalSdkOptions {
  /** The history the SDK is given instead of the caller's (answers decoded, stale ones dropped, approvals checked). */
  readonly history: ModelMessage[] | undefined;
  /** Prepares the answers before the SDK reads them (the call's `onStart`); `undefined`: nothing to prepare. */
  readonly prepare: (() => Promise<void>) | undefined;
  /** A `streamText` transform keeping the app's own requests as the SDK writes them without a secret. */
  readonly transform: StreamTextTransform<ToolSet> | undefined;
  /** The same for each step's content and response messages (its `onStepEnd`). */
  readonly stepEnd: ((step: { readonly content?: unknown; readonly response?: { readonly messages?: unknown } }) => void) | undefined;
}

/**
 * Human approval, owned in one place: one session per run (and per SDK
 * `messages` array for tools guarded without a run), opened only when the
 * request carries answers (`answersIn`) or the call may ask the app's own
 * approvals beside the handlers'. It owns the history the SDK is given
 * (answers decoded, stale ones dropped, approvals checked against the
 * secret, edits validated and signed, used approvals shown as they ran), the
 * answer for each resumed call, the SDK options that serve them (the
 * secret's reach, the app's requests kept unsigned, the preparation before
 * the SDK reads the history), and executing an approved call once through
 * the ledger. The SDK adapters ask it; nothing else reads a resume.
 */
export class ApprovalSession {
  readonly state: ApprovalState;
  /** What the request resumes: its history with stale answers dropped and typed answers decoded, and the answers. */
  readonly resume: Resume;
  /** The request's history as the caller gave it (what a plain SDK call resumes from). */
  private readonly given: readonly ModelMessage[];

  constructor({ messages, wording, tools, ledger, runtimeSecret, previousSecrets = [], record }: ApprovalSessionOptions) {
    this.given = messages;
    this.resume = readResume(messages, wording);
    this.state = {
      resume: this.resume,
      wording,
      tools,
      ledger,
      runtimeSecret,
      previousSecrets,
      record,
      requests: { own: new Set(), foreign: new Set() },
    };
  }

  /** Whether an approved call runs through the ledger (once across every resume of its approval). */
  get executesOnce(): boolean {
    return this.state.resume.answers.length > 0 && this.state.ledger !== undefined;
  }

  /** Whether an approval answers a handler's `confirm`: its request verified with the secret. */
  verified(approval: ResumedApproval): boolean {
    return !this.state.resume.unverified.has(approval.approvalId);
  }

  /** Whether a used approval is answered otherwise now: its call is not decided again (see `replayUsedApprovals`). */
  replaysOverriddenAnswer(approvalId: string): boolean {
    return replaysOverriddenAnswer(this.state, approvalId);
  }

  /** Notes who asked a call's approval request in this run: a handler's `confirm` (`own`), or the app or the SDK alone. */
  asked(toolCallId: string, own: boolean): void {
    this.state.requests[own ? 'own' : 'foreign'].add(toolCallId);
  }

  /**
   * The SDK options the session owns in a call: `signs` when the SDK signs
   * with the runtime's secret (the call gives none of its own,
   * `appSecret`), and whether the call streams.
   */
  sdkOptions({
    signs,
    appSecret,
    streaming,
  }: {
    signs: boolean;
    appSecret: ApprovalSecret | undefined;
    streaming: boolean;
  }): ApprovalSdkOptions {
    const { state } = this;
    state.signs = signs;
    state.secret = appSecret ?? (signs ? state.runtimeSecret : undefined);
    // a resume whose answers may be used approvals, or whose approvals are checked against the runtime's
    // own secret (a restart refuses them, typed), gets a history its answers can be rewritten in
    const readsLedger = resumeReadsLedger(state);
    state.checksApprovals = state.resume.approved.size > 0 && appSecret === undefined && signs;
    const history = state.resume.rewritten || readsLedger || state.checksApprovals ? editableHistory(state) : undefined;
    return {
      history,
      prepare: this.preparation(),
      transform: signs && streaming ? foreignSignatureTransform(state) : undefined,
      stepEnd: signs ? (step) => stripForeignSignatures(state, step) : undefined,
    };
  }

  /**
   * What prepares the answers (checks, edits, replays) before the SDK reads
   * them, once whoever calls it; `undefined` when there is nothing to
   * prepare. Asked after {@link sdkOptions}.
   */
  preparation(): (() => Promise<void>) | undefined {
    const { state } = this;
    const prepares =
      state.resume.edits.length > 0 ||
      state.resume.answers.some((answer) => answer.problem !== undefined) ||
      resumeReadsLedger(state) ||
      state.checksApprovals;
    if (!prepares) return undefined;
    return () => {
      state.prepared ??= applyApprovalEdits(state);
      return state.prepared;
    };
  }

  /** Keeps a step's history (from `from` on) with the app's own requests as the SDK writes them without a secret. */
  stripMessages(messages: unknown, from: number): void {
    stripForeignSignaturesIn(this.state, messages, from);
  }

  /**
   * The answer a plain SDK call resumes for a call (tools guarded without a
   * run): an approval response of the input's last message whose request
   * was made for this call (and that holds no result for it), decoded
   * (`approved` is what the person decided: a typed refusal, or an answer
   * that cannot be read, is a refusal, even where the SDK reads the response
   * as an approval). `undefined` when the messages resume nothing for it.
   * A later step's messages end with tool results, so a provider reusing
   * call ids (`call_0` every turn) never makes a new call look resumed.
   */
  answerFor(toolCallId: string): ResumedApproval | undefined {
    if (!this.resumes(toolCallId)) return undefined;
    const { resume } = this.state;
    return resume.approved.get(toolCallId) ?? resume.refused.get(toolCallId);
  }

  /**
   * The approval response of the input's last message that answers a call
   * (found by id) but was dropped as answering nothing a person may answer.
   * The plain SDK reads the raw responses and may still execute such a call:
   * a tool guarded without a run refuses it.
   */
  droppedFor(toolCallId: string): DroppedApproval | undefined {
    if (!this.resumes(toolCallId)) return undefined;
    return this.state.resume.dropped.find((dropped) => dropped.toolCallId === toolCallId);
  }

  /**
   * Why a person's answer runs nothing, as a refusal of the call (who, why,
   * and what the model reads), or `undefined` for an approval: an answer
   * that cannot be read, or a refusal in the person's words.
   */
  refusal(
    answer: ResumedApproval,
    call: ToolCallInfo,
  ): { readonly handler: string; readonly reason: string; readonly text?: string } | undefined {
    if (answer.problem !== undefined) return { handler: ANSWER_HANDLER, reason: unreadable(answer.problem) };
    if (answer.approved) return undefined;
    return {
      handler: ANSWER_HANDLER,
      reason: 'the person refused it',
      text: this.state.wording.rejectedCall({ toolCall: call, reason: answer.reason }),
    };
  }

  /**
   * Whether a plain SDK call may be resuming a call with `toolCallId` from
   * the input: its last message answers approvals, and holds no result for
   * that id. The SDK resumes no call whose result that message holds (it
   * ended the request that ran it), so a call with that id is a new one.
   */
  private resumes(toolCallId: string): boolean {
    const last = this.given.at(-1);
    return (
      last?.role === 'tool' &&
      last.content.some((part) => part.type === 'tool-approval-response') &&
      !last.content.some((part) => part.type === 'tool-result' && part.toolCallId === toolCallId)
    );
  }
}
