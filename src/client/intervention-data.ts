import type { UIDataTypes, UIMessage, UITools } from 'ai';

/**
 * One decision record as the UI receives it: JSON, the error as its message.
 *
 * @example
 * ```ts
 * const line = (record: InterventionRecordData) => `${record.handler}: ${record.action}${record.enforced ? '' : ' (not enforced)'}`;
 * ```
 */
export interface InterventionRecordData {
  readonly handler: string;
  readonly action: 'proceed' | 'deny' | 'guide' | 'confirm' | 'transform' | 'error';
  /** `deny`: the reason the model read. */
  readonly reason?: string;
  /** `guide`: the feedback the model read. */
  readonly feedback?: string;
  /** `confirm`: the prompt shown to the person. */
  readonly prompt?: string;
  /** The short reason for people the handler gave, if any. */
  readonly display?: string;
  readonly enforced: boolean;
  readonly mode: 'enforce' | 'shadow';
  readonly durationMs: number;
  /**
   * The handler's error, as a stable code (`error.code` of the library's
   * errors: `'handler-failed'`, `'handler-timeout'`, `'invalid-action'`),
   * never its message, which may quote what a person must not see. The
   * server's own records (`result.interventions`, `onDecision`) keep the error.
   */
  readonly error?: string;
  readonly warning?: string;
  readonly stepNumber?: number;
}

/**
 * A decision about one tool call, as the UI message stream carries it: the
 * data of a `data-intervention` part. It is for people (a badge, a decision
 * log); the model reads its own wording, never this.
 *
 * @example
 * ```ts
 * function describe(decision: InterventionData): string {
 *   // a person's answer that stood names who gave it; otherwise the rule (handler) that decided, if any
 *   const person = decision.answer !== undefined && decision.handler === undefined ? decision.approval?.answeredBy : undefined;
 *   const by = person !== undefined ? ` by ${person}` : decision.handler !== undefined ? ` by the rule ${decision.handler}` : '';
 *   return `${decision.toolName}: ${decision.action}${by}${decision.reason ? ` (${decision.reason})` : ''}`;
 * }
 * ```
 */
export interface InterventionData {
  readonly toolCallId: string;
  readonly toolName: string;
  /**
   * What was decided for the call: `proceed` (it runs), `transform` (it runs
   * with changed arguments), `deny`, `guide` (sent back to the model), or
   * `confirm` (waiting for a person). A person's refusal is a `deny` with an
   * `answer` and no `handler`.
   */
  readonly action: 'proceed' | 'transform' | 'deny' | 'guide' | 'confirm';
  /** The handler that decided (the one that denied, the first that guided or asked); none for `proceed` and for a person's refusal. */
  readonly handler?: string;
  /**
   * A short reason for people: what the deciding handler gave as its second
   * argument (`deny(reason, display)`), else its reason, feedback or prompt;
   * for a refusal, the person's own reason.
   */
  readonly reason?: string;
  /** The person's answer, when this decision follows one (a resumed call). */
  readonly answer?: {
    readonly approved: boolean;
    readonly reason?: string;
    readonly remember: 'once' | 'session' | 'always';
    /** Whether they changed the arguments before approving. */
    readonly edited: boolean;
  };
  /** What the request asks of its answer and what became of one (see {@link InterventionApprovalData}). */
  readonly approval?: InterventionApprovalData;
  /**
   * `confirm`: the feedback of the handlers that guided the call, which the
   * person's approval outranks (seed 000's deny > confirm > guide): shown
   * with the request, so they decide knowing what the other checks said.
   */
  readonly guidance?: readonly { readonly handler: string; readonly feedback: string }[];
  /**
   * The arguments decided on, when they are not the model's (a person's
   * edit): those the call ran with, or those a handler or the tool's schema
   * refused.
   */
  readonly input?: unknown;
  /** The step the decision was taken in; absent for a resumed call (decided before step 0). */
  readonly stepNumber?: number;
  /** Every handler evaluation behind the decision, in order. */
  readonly records: readonly InterventionRecordData[];
}

/**
 * Who may answer a human approval, as data a browser can compare with the
 * signed-in person (see `canAnswer`): the rule of a handler's confirm
 * (`approvers`) without its predicate, which only the server can run
 * (`allow: true` says there is one).
 *
 * @example
 * ```ts
 * const managers: ApproversData = { roles: ['manager'], label: 'a manager' };
 * ```
 */
export interface ApproversData {
  /** People who may answer, by user id (`runtimeContext.userId`). */
  readonly userIds?: readonly string[];
  /** Roles that may answer (`runtimeContext.roles` or `runtimeContext.role`). */
  readonly roles?: readonly string[];
  /** `true` when the rule also admits whom the app's own test (`allow`) admits: only the server can tell. */
  readonly allow?: boolean;
  /** The person who asked may not answer (the two-person rule). */
  readonly excludeAsker?: boolean;
  /** How people are told who may answer ("a manager"). */
  readonly label?: string;
}

/**
 * What a human approval asks of its answer and what became of one, as a
 * `data-intervention` part carries it: who may answer (`mayAnswer`, in
 * words; `approvers`, as rules to compare), how many must approve (`quorum`)
 * and who has (`approvedBy`), how long it stays open (`expiresInMs`), the
 * answer's `status` (`'not-allowed'` and `'awaiting-quorum'`: still waiting,
 * for the right person or more approvals; `'expired'`: too late, nothing
 * ran; `'refused'`: refused by someone who may answer, final for the
 * request), and the user ids of who asked (`askedBy`: on the request, and on
 * what became of its answers) and who answered (`answeredBy`). The fields of
 * the server's `ApprovalRecord` (this module imports nothing of the runtime).
 * `approvalOf` merges what the decisions of one call say.
 *
 * @example
 * ```ts
 * const waiting = (approval: InterventionApprovalData) =>
 *   approval.status === 'not-allowed' ? `Waiting for ${approval.mayAnswer ?? 'someone else'}` : undefined;
 * ```
 */
export interface InterventionApprovalData {
  /** Who may answer, in words ("a manager"); absent: anyone. */
  readonly mayAnswer?: string;
  /** Who may answer, as rules (every one must admit the person); absent with `mayAnswer`: not said. */
  readonly approvers?: readonly ApproversData[];
  readonly quorum?: number;
  readonly expiresInMs?: number;
  readonly status?: 'approved' | 'not-allowed' | 'awaiting-quorum' | 'expired' | 'refused';
  /** The user id of the request that asked (the call runs on their behalf). */
  readonly askedBy?: string;
  /** The user id of the request that carried the answer (an approval or a refusal). */
  readonly answeredBy?: string;
  /** The user ids of the approvals counted (a quorum), or of the approval that ran the call. */
  readonly approvedBy?: readonly string[];
}

/**
 * The data parts the runtime adds to a UI message: `data-intervention`.
 *
 * @example
 * ```ts
 * type MyDataParts = InterventionDataTypes & { weather: { city: string } };
 * ```
 */
export type InterventionDataTypes = { intervention: InterventionData };

/**
 * The `UIMessage` of a chat whose server uses the runtime: `useChat<InterventionUIMessage>()`
 * types its `data-intervention` parts. Pass your own metadata, data parts
 * and tools to extend it.
 *
 * @example
 * ```ts
 * function decisionsOf(message: InterventionUIMessage): InterventionData[] {
 *   return message.parts.flatMap((part) => (part.type === 'data-intervention' ? [part.data] : []));
 * }
 * ```
 */
export type InterventionUIMessage<
  METADATA = unknown,
  // biome-ignore lint/complexity/noBannedTypes: the AI SDK's own default for "no data parts" (UIMessage's)
  DATA_PARTS extends UIDataTypes = {},
  TOOLS extends UITools = UITools,
> = UIMessage<METADATA, DATA_PARTS & InterventionDataTypes, TOOLS>;
