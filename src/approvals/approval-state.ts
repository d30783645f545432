import type { ModelMessage, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Wording } from '../handlers/wording.ts';
import type { ApprovalLedger } from './approval-ledger.ts';
import type { Resume } from './read-resume.ts';

/** A secret the SDK's approvals are signed with (HMAC): a string or bytes. */
export type ApprovalSecret = string | Uint8Array;

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
}
