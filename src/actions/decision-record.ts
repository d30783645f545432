import type { InterventionApprovalData } from '../client/intervention-data.ts';
import type { ActionType } from './intervention-actions.ts';
import type { Lifecycle } from './lifecycle.ts';

/**
 * `'enforce'` (default) applies the handler's actions; `'shadow'` evaluates
 * and records them without enforcing anything (a dry run).
 *
 * @example
 * ```ts
 * const mode: HandlerMode = process.env.ENFORCE_EMAIL_POLICY === 'true' ? 'enforce' : 'shadow';
 * interventions.use(defineHandler({
 *   name: 'email-policy',
 *   mode, // in shadow mode, its records show what it would have done, with `enforced: false`
 *   beforeToolCall: ({ toolCall }) =>
 *     toolCall.toolName === 'send_email' ? InterventionActions.confirm('Send this email?') : InterventionActions.proceed(),
 * }));
 * ```
 */
export type HandlerMode = 'enforce' | 'shadow';

/**
 * One handler evaluation: who decided what, where, how long it took, and
 * whether it took effect. Delivered to `onDecision` hooks and attached to the
 * result as `result.interventions.decisions`.
 *
 * @example
 * ```ts
 * const { decisions } = (await interventions.generateText({ model, tools, prompt })).interventions;
 * for (const record of decisions.filter((record) => record.action === 'deny')) {
 *   console.log(`${record.handler} denied ${record.toolName}: ${record.reason}`);
 * }
 * ```
 */
export interface DecisionRecord {
  /** The handler's `name`. */
  readonly handler: string;
  readonly lifecycle: Lifecycle;
  /** The action returned, or `'error'` when the handler failed with `onError: 'throw'`. */
  readonly action: ActionType | 'error';
  /** `deny`: the reason; `proceed`: why, when the handler said (e.g. a remembered approval). */
  readonly reason?: string;
  /** `guide`: the feedback. */
  readonly feedback?: string;
  /** `confirm`: the prompt shown to the human. */
  readonly prompt?: string;
  /** `deny` / `guide` / `confirm`: the short reason for people the handler gave (its second argument), if any. */
  readonly display?: string;
  /**
   * Whether the action took effect. `false` for shadow handlers, for a
   * transform or guide overridden by a later deny, and for actions that have
   * no effect at this lifecycle point (see `warning`).
   */
  readonly enforced: boolean;
  readonly mode: HandlerMode;
  /** Wall time of the handler, in milliseconds. */
  readonly durationMs: number;
  /** What the handler threw (or the timeout / invalid-action error), if it failed. */
  readonly error?: unknown;
  /** Why an allowed action had no effect. */
  readonly warning?: string;
  /** The tool call evaluated (tool lifecycle points). */
  readonly toolCallId?: string;
  readonly toolName?: string;
  /** The step evaluated, when known. */
  readonly stepNumber?: number;
  /**
   * `true` on the approval ledger's record (`handler: 'approval-ledger'`)
   * of a replayed approval: the approved call was executed by an earlier
   * (or concurrent) resume of the same approval, on this or another
   * instance, so it was not executed again and the model read the
   * outcome recorded then.
   */
  readonly replayed?: boolean;
  /**
   * The SHA-256 (lower-case hex) of the exact action decided: the lifecycle
   * point, the tool, the call's arguments as the evaluation decided them
   * (a transform's, when it was committed; the model's, when the call was
   * denied), the action and its words (`reason`, `feedback`, `prompt`,
   * `display`). `actionDigestOf` computes it from a record and the
   * arguments, to check a record against a call. Set when the runtime has
   * a decision `trail` or `actionDigests: true` (otherwise nothing is
   * hashed).
   */
  readonly actionDigest?: string;
  /**
   * A human approval's terms and what became of an answer: on a confirm's
   * record, who may answer, how many must approve and how long it stays
   * open; on the records the runtime writes for an answer, its `status`,
   * who asked and who answered (see {@link ApprovalRecord}).
   */
  readonly approval?: ApprovalRecord;
  /** The runtime's `policyVersion` (see `createInterventions`) when the decision was made. */
  readonly policyVersion?: string;
  /** Where the record was written in the runtime's decision trail (`trail`), once it was. */
  readonly trail?: DecisionTrailPosition;
}

/**
 * What a decision record says of a human approval. A confirm's record
 * carries what it asks (`mayAnswer`, and the same as rules: `approvers`;
 * `quorum`, `expiresInMs`); the records the runtime writes for a person's
 * answer (`handler: 'approval-approvers'`, `'approval-quorum'`,
 * `'approval-expiry'`, `'approval-ledger'`) carry what became of it
 * (`status`) and the people: `askedBy` (the user id of the request that
 * asked, whose runtime context the call runs with) and `answeredBy` (the
 * user id of the request that carried the answer), and for a quorum the
 * approvals counted so far (`approvedBy`). The same fields reach a chat UI
 * (`InterventionData.approval`).
 *
 * @example
 * ```ts
 * interventions.addHook('onDecision', ({ record }) => {
 *   const approval: ApprovalRecord | undefined = record.approval;
 *   if (approval?.status === 'expired') log.warn(`${record.toolName}: asked by ${approval.askedBy}, answered too late`);
 * });
 * ```
 */
export type ApprovalRecord = InterventionApprovalData;

/**
 * Where a record is in its decision trail: the chain (its key), the link's
 * place in it (from 0), the link's hash and the hash of the link before it
 * (64 zeros for the first). Keep a head (`index` and `hash`) outside the
 * store, and `verifyDecisionTrail` also detects a chain cut at its end or
 * rewritten whole from some link on.
 *
 * @example
 * ```ts
 * interventions.addHook('onDecision', ({ record }) => {
 *   const position: DecisionTrailPosition | undefined = record.trail;
 *   if (position !== undefined) log.info(`${position.key}#${position.index} ${position.hash}`);
 * });
 * ```
 */
export interface DecisionTrailPosition {
  readonly key: string;
  readonly index: number;
  readonly hash: string;
  readonly prev: string;
}

/**
 * The record of a call the runtime refused itself (a rule of its own, named
 * by `handler`, not a registered handler): an enforced `deny` of the tool
 * call, before any step when `stepNumber` is not given.
 */
export function runtimeDenial(
  call: { readonly toolCallId: string; readonly toolName: string },
  handler: string,
  reason: string,
  { display, stepNumber }: { readonly display?: string | undefined; readonly stepNumber?: number | undefined } = {},
): DecisionRecord {
  return {
    handler,
    lifecycle: 'beforeToolCall',
    action: 'deny',
    reason,
    ...(display === undefined ? {} : { display }),
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    ...(stepNumber === undefined ? {} : { stepNumber }),
  };
}
