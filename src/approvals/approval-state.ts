import type { ModelMessage, ToolApprovalRequest, ToolCallPart, ToolSet } from 'ai';
import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { Resume, ResumedApproval } from '../answers/read-resume.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Wording } from '../handlers/wording.ts';
import type { ApprovalInbox } from '../inbox/approval-inbox.ts';
import type { AskedRequest } from '../inbox/inbox-request-of.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';

/** A secret the SDK's approvals are signed with (HMAC): a string or bytes. */
export type ApprovalSecret = string | Uint8Array;

/** A runtime context, as the session reads it (the trusted context of a request). */
export type RuntimeContext = Readonly<Record<string, unknown>>;

/**
 * How the adapters decide a resumed call before the SDK reads the history:
 * the gates and handlers run again with the person's answer, as the asker
 * (`asker`: the pinned runtime context of the request that asked, when the
 * answer carries one), and the decision is kept where `toolApproval` takes
 * it. `answered`: what the confirms this answer answered ask of it
 * (`undefined`: it answered no confirm).
 */
export type DecideResumed = (
  approval: ResumedApproval,
  asker: RuntimeContext | undefined,
) => Promise<{ readonly type: string; readonly answered?: ConfirmTerms | undefined }>;

/** An answer that cannot be taken yet (the wrong person, or a quorum not reached): its request is left pending. */
export interface HeldAnswer {
  readonly approval: ResumedApproval;
  /** The request, as the history holds it (its signature with the pin), and the call it was made for. */
  readonly request: ToolApprovalRequest;
  readonly call: ToolCallPart;
}

/**
 * What one approval session works with and keeps (see `ApprovalSession`):
 * what its input resumes, the editable copy of the history the SDK is given
 * (`history`), whether its approvals are checked against the runtime's
 * secret, the used approvals found in the ledger (by id: whether their
 * answer now says something else than a plain approval), the preparation
 * of the answers, the resumed calls' gates, and the requests the run asked
 * (a handler's `confirm`: `own`; the app or the SDK alone: `foreign`).
 */
export interface ApprovalState {
  readonly resume: Resume;
  readonly wording: Wording;
  readonly tools: ToolSet | undefined;
  /** Where approved calls are executed once; `undefined`: not kept. */
  readonly ledger: ApprovalLedger | undefined;
  /** The runtime's secret: the one its confirms are signed with when the app gives the SDK none of its own. */
  readonly runtimeSecret: ApprovalSecret;
  /** The runtime's previous keys (an `approvalSecret` list): they still verify the runtime's approvals they signed. */
  readonly previousSecrets: readonly ApprovalSecret[];
  /** Keeps a record the session writes itself, with the arguments of the call it decided. */
  readonly record: (record: DecisionRecord, input?: unknown) => Promise<void>;
  /** The secret the SDK verifies this call's approvals with (the app's own, or the runtime's when it signs), if any. */
  secret?: ApprovalSecret | undefined;
  /** Whether the SDK signs this call's requests with the runtime's secret (the app gave none): the app's own requests then lose it. */
  signs?: boolean;
  history?: ModelMessage[] | undefined;
  checksApprovals?: boolean;
  replays?: Map<string, boolean> | undefined;
  prepared?: Promise<void> | undefined;
  resumedGates?: Promise<ReadonlyMap<string, RegisteredHandler[]>> | undefined;
  readonly requests: { readonly own: Set<string>; readonly foreign: Set<string> };
  /** The pins (who asked, and when) of the confirms asked in this run, sealed, by call id (see `approval-pin.ts`). */
  readonly pins: Map<string, string>;
  /** The runtime context of the request that asked each resumed call (its pin), by call id: the call runs with it. */
  readonly askers: Map<string, RuntimeContext>;
  /** When each approved answer's approval expires (by approval id): its claim is checked against it again. */
  readonly expiries: Map<string, { readonly expiresAt: number; readonly expiresInMs: number }>;
  /** The answers left pending for the right person or more approvals. */
  readonly held: HeldAnswer[];
  /** Where requests wait for the people who answer them; `undefined`: no inbox. */
  readonly inbox?: ApprovalInbox | undefined;
  /** The runtime's redaction for people: what the inbox shows of a call's arguments. */
  readonly forPeople?: ((text: string) => string) | undefined;
  /** The confirms asked in this run, by call id, until their requests are put in the inbox (with their approval id). */
  readonly asks?: Map<string, Omit<AskedRequest, 'approvalId'>>;
  /** The requests of this run made and not yet put in the inbox. */
  readonly unlisted?: AskedRequest[];
  /**
   * The answers the inbox admitted before this request, by approval id: the
   * trusted runtime context of who gave them (the resume admits them as
   * theirs, answered in time).
   */
  readonly fromInbox?: Map<string, Readonly<Record<string, unknown>>>;
  /** The trusted runtime context of the request that carries the answers. */
  approver?: RuntimeContext | undefined;
  /** How resumed calls are decided before the SDK reads them (the adapter's). */
  decide?: DecideResumed | undefined;
}
