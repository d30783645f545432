import type { ModelMessage, ToolSet } from 'ai';
import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { ANSWER_HANDLER, unreadable } from '../answers/decode-answers.ts';
import type { DroppedApproval } from '../answers/drop-stale-approvals.ts';
import { type Resume, type ResumedApproval, readResume } from '../answers/read-resume.ts';
import type { GuideFeedback } from '../handlers/verdict.ts';
import type { Wording } from '../handlers/wording.ts';
import type { ApprovalInbox } from '../inbox/approval-inbox.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { onDemand } from '../util/on-demand.ts';
import type { ApprovalPin, PinnedCall } from './approval-pin.ts';
import type { ApprovalSecret, ApprovalState, DecideResumed, HeldAnswer, RuntimeContext } from './approval-state.ts';
import { editableHistory } from './editable-history.ts';
import { finishRequest, finishRequests, finishRequestsIn } from './own-approval-requests.ts';
import type { SettledAnswer } from './settle-answer.ts';

/**
 * The work of approvals beyond reading a request, loaded with the first
 * request of a process that needs it (one mechanism: `onDemand`): sealing and
 * opening pins, taking a resume's answers, the people rules, a person's edits.
 */
const pins = onDemand(() => import('./approval-pin.ts'));
const answersWork = onDemand(() => import('./take-answers.ts'));
const peopleRules = onDemand(() => import('./settle-answer.ts'));
const edits = onDemand(() => import('./apply-approval-edits.ts'));
const inboxWork = onDemand(() => import('../inbox/list-requests.ts'));

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
  /** Where the run's requests wait for the people who answer them; `undefined`: no inbox. */
  readonly inbox?: ApprovalInbox | undefined;
  /** The runtime's redaction for people (what the inbox shows of a call's arguments). */
  readonly forPeople?: ((text: string) => string) | undefined;
}

/** The SDK options a session owns in one call (see {@link ApprovalSession.sdkOptions}). */
export interface ApprovalSdkOptions {
  /** The history the SDK is given instead of the caller's (answers decoded, stale ones dropped, approvals checked). */
  readonly history: ModelMessage[] | undefined;
  /** Prepares the answers before the SDK reads them (the call's `onStart`); `undefined`: nothing to prepare. */
  readonly prepare: (() => Promise<void>) | undefined;
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
  /** What became of each answer a plain call settled, by approval id. */
  private readonly settled = new Map<string, Promise<SettledAnswer>>();

  constructor({ messages, wording, tools, ledger, runtimeSecret, previousSecrets = [], record, inbox, forPeople }: ApprovalSessionOptions) {
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
      pins: new Map(),
      askers: new Map(),
      expiries: new Map(),
      held: [],
      ...(inbox === undefined ? {} : { inbox, forPeople, asks: new Map(), unlisted: [], fromInbox: new Map() }),
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

  /**
   * Whether a used approval is answered otherwise now (see
   * `replayUsedApprovals`): its call is not decided again (no handler can
   * change what already ran), the model reads the first resume's result.
   */
  replaysOverriddenAnswer(approvalId: string): boolean {
    return this.state.replays?.get(approvalId) === true;
  }

  /** Notes who asked a call's approval request in this run: a handler's `confirm` (`own`), or the app or the SDK alone. */
  asked(toolCallId: string, own: boolean): void {
    this.state.requests[own ? 'own' : 'foreign'].add(toolCallId);
  }

  /**
   * A handler's confirm asks a person about `call` for the request whose
   * trusted runtime context is `asker`: the request is the library's, and
   * carries its pin (who asked, and when), sealed with the runtime's secret.
   */
  async ask(
    call: PinnedCall,
    asker: RuntimeContext,
    { terms, guidance, prompt }: { terms: ConfirmTerms | undefined; guidance?: readonly GuideFeedback[] | undefined; prompt?: string },
  ): Promise<void> {
    this.asked(call.toolCallId, true);
    // asked on the ledger's clock (the store's): the one its expiry is judged on
    const pin = { asker, askedAt: await askedAt(this.state.ledger), terms, guidance };
    const { sealPin } = await pins();
    const token = await sealPin(this.state.runtimeSecret, pin, call);
    this.state.pins.set(call.toolCallId, token);
    // kept for the inbox until the request is made (its approval id is the SDK's)
    this.state.asks?.set(call.toolCallId, { call, asker, askedAt: pin.askedAt, terms, prompt, pin: token });
  }

  /**
   * Who asked an answered call, as the ledger kept it (tools guarded without
   * a run); the call then runs with the asker's runtime context.
   */
  async askerOfCall(approval: ResumedApproval): Promise<ApprovalPin | undefined> {
    const [{ callKey, parsePin }, { askedCall }] = await Promise.all([pins(), answersWork()]);
    const pin = parsePin(await this.state.ledger?.askerOf?.(await callKey(askedCall(approval))));
    if (pin !== undefined) this.state.askers.set(approval.toolCallId, pin.asker);
    return pin;
  }

  /**
   * What the people rules make of an answer to a confirm that asks `terms`
   * of it (see `settleAnswer`), the answer given in a request whose trusted
   * runtime context is `approver`: settled once per answer (a plain call is
   * admitted where the SDK asks again, before its handlers decide, and
   * executed after), so a vote and its record are never made twice.
   */
  settle(approval: ResumedApproval, terms: ConfirmTerms, approver: RuntimeContext, pin: ApprovalPin | undefined): Promise<SettledAnswer> {
    let settled = this.settled.get(approval.approvalId);
    if (settled === undefined) {
      this.state.approver = approver;
      // a plain call's pin lives in the ledger: without one that keeps it, a confirm that asks nothing of people still runs
      const pinRequired = this.state.ledger?.askerOf !== undefined;
      settled = (async () => (await peopleRules()).settleAnswer(this.state, approval, terms, pin, { pinRequired }))();
      this.settled.set(approval.approvalId, settled);
    }
    return settled;
  }

  /** The runtime context a resumed call runs with: its asker's, as its answer's pin says (`undefined`: none). */
  askerOf(toolCallId: string): RuntimeContext | undefined {
    return this.state.askers.get(toolCallId);
  }

  /** The answers of the resume, but those held (from someone who may not answer, or short of a quorum): what handlers read. */
  get admittedAnswers(): readonly ResumedApproval[] {
    const { held, resume } = this.state;
    return resume.answers.filter((answer) => !held.some((kept) => kept.approval.approvalId === answer.approvalId));
  }

  /** The answers left pending for the right person or more approvals: this request runs no step for them. */
  get held(): readonly HeldAnswer[] {
    return this.state.held;
  }

  /**
   * The SDK options the session owns in a call: `signs` when the SDK signs
   * with the runtime's secret (the call gives none of its own,
   * `appSecret`); `approver`, the trusted runtime context of the request
   * carrying the answers; `decide`, how its resumed calls are decided.
   */
  sdkOptions({
    signs,
    appSecret,
    approver,
    decide,
  }: {
    signs: boolean;
    appSecret: ApprovalSecret | undefined;
    approver: RuntimeContext;
    decide: DecideResumed | undefined;
  }): ApprovalSdkOptions {
    const { state } = this;
    Object.assign(state, { signs, secret: appSecret ?? (signs ? state.runtimeSecret : undefined), approver, decide });
    // a resume whose answers are checked, replayed or judged gets a history its answers can be rewritten in
    state.checksApprovals = state.resume.approved.size > 0 && appSecret === undefined && signs;
    const rewrites = state.resume.rewritten || state.resume.answers.length > 0;
    return { history: rewrites ? editableHistory(state) : undefined, prepare: this.preparation() };
  }

  /**
   * What prepares the answers before the SDK reads them, once whoever calls
   * it (pins taken off, edits validated and signed, every answer admitted:
   * see `takeAnswers`); `undefined`: nothing to prepare. After {@link sdkOptions}.
   */
  preparation(): (() => Promise<void>) | undefined {
    const { state } = this;
    if (state.resume.answers.length === 0 && state.resume.edits.length === 0) return undefined;
    return () => {
      state.prepared ??= (async () => {
        // the work of a resume loads with the first request that carries answers
        const [{ takeAnswers, takePins }, { applyApprovalEdits }] = await Promise.all([answersWork(), edits()]);
        const tokens = takePins(state);
        await applyApprovalEdits(state);
        await takeAnswers(state, tokens);
      })();
      return state.prepared;
    };
  }

  /**
   * Finishes the requests of a step (content and response messages): see
   * `own-approval-requests.ts`. A promise: the requests are being put in
   * the inbox (the step's readers wait for it).
   */
  finishStep(step: Parameters<typeof finishRequests>[1]): Promise<void> | undefined {
    finishRequests(this.state, step);
    return this.listRequests();
  }

  /** Finishes a stream part, when it is a request this run asked (a promise: it is being put in the inbox). */
  finishPart(part: unknown): Promise<void> | undefined {
    finishRequest(this.state, part);
    return this.listRequests();
  }

  /** Puts the requests made since the last call in the inbox, where the people who answer them find them. */
  private listRequests(): Promise<void> | undefined {
    const { unlisted } = this.state;
    if (unlisted === undefined || unlisted.length === 0) return undefined;
    const made = unlisted.splice(0);
    return (async () => (await inboxWork()).listRequests(this.state, made))();
  }

  /** Finishes the requests of a step's history from `from` on. */
  finishMessages(messages: unknown, from: number): void {
    finishRequestsIn(this.state, messages, from);
  }

  /**
   * The answer a plain SDK call resumes for a call (tools guarded without a
   * run), decoded (`approved` is what the person decided, even where the SDK
   * reads a typed refusal as an approval); `undefined` when the input's last
   * message resumes nothing for it (see {@link resumes}).
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
    guidance?: readonly GuideFeedback[],
  ): { readonly handler: string; readonly reason: string; readonly text?: string } | undefined {
    if (answer.problem !== undefined) return { handler: ANSWER_HANDLER, reason: unreadable(answer.problem) };
    if (answer.approved) return undefined;
    return {
      handler: ANSWER_HANDLER,
      reason: 'the person refused it',
      text: this.state.wording.rejectedCall({ toolCall: call, reason: answer.reason, ...(guidance === undefined ? {} : { guidance }) }),
    };
  }

  /**
   * Whether a plain SDK call may be resuming a call with `toolCallId` from
   * the input: its last message answers approvals, and holds no result for
   * that id (a provider reusing `call_0` every turn never makes a new call
   * look resumed: the SDK resumes no call whose result that message holds).
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

/** Keeps who asked a call, and when, in `ledger` (tools guarded without a run: their requests carry no pin). */
export async function keepAsker(
  ledger: ApprovalLedger | undefined,
  call: PinnedCall,
  asker: RuntimeContext,
  terms: ConfirmTerms | undefined,
  guidance?: readonly GuideFeedback[],
): Promise<void> {
  if (ledger?.keepAsker === undefined) return;
  const { callKey, pinJson } = await pins();
  await ledger.keepAsker(await callKey(call), pinJson({ asker, askedAt: await askedAt(ledger), terms, guidance }));
}

/** When a request is asked, on the clock its expiry is judged on: the ledger's, else this instance's. */
async function askedAt(ledger: ApprovalLedger | undefined): Promise<number> {
  return ledger?.now === undefined ? Date.now() : ledger.now();
}
