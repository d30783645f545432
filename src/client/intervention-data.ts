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
 *   const who = decision.answer !== undefined && decision.handler === undefined ? 'you' : (decision.handler ?? 'the handlers');
 *   return `${decision.toolName}: ${decision.action} by ${who}${decision.reason ? ` (${decision.reason})` : ''}`;
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
  /**
   * What the request asks of its answer and what became of one: who may
   * answer it (`mayAnswer`), how many must approve (`quorum`) and who has
   * (`approvedBy`), how long it stays open (`expiresInMs`), the answer's
   * `status` (`'not-allowed'` and `'awaiting-quorum'`: still waiting, for the
   * right person or more approvals; `'expired'`: too late, nothing ran), and
   * the user ids of who asked and who answered. (The fields of the
   * server's `ApprovalRecord`: this module imports nothing of the runtime.)
   */
  readonly approval?: {
    readonly mayAnswer?: string;
    readonly quorum?: number;
    readonly expiresInMs?: number;
    readonly status?: 'approved' | 'not-allowed' | 'awaiting-quorum' | 'expired';
    readonly askedBy?: string;
    readonly answeredBy?: string;
    readonly approvedBy?: readonly string[];
  };
  /**
   * `confirm`: the feedback of the handlers that guided the call, which the
   * person's approval outranks (seed 000's deny > confirm > guide): shown
   * with the request, so they decide knowing what the other checks said.
   */
  readonly guidance?: readonly { readonly handler: string; readonly feedback: string }[];
  /** The arguments the call runs with, when they are not the model's (a person's edit). */
  readonly input?: unknown;
  /** The step the decision was taken in; absent for a resumed call (decided before step 0). */
  readonly stepNumber?: number;
  /** Every handler evaluation behind the decision, in order. */
  readonly records: readonly InterventionRecordData[];
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
