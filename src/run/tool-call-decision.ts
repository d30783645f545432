import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { GuideFeedback } from '../handlers/verdict.ts';
import { formatGuidance } from '../handlers/wording.ts';
import { unreachable } from '../util/unreachable.ts';

/**
 * What the handlers and gates decided for one tool call, as the run applies
 * it. `text` is what the model reads for a call that does not run.
 */
export type ToolCallDecision =
  | {
      readonly type: 'proceed';
      /** A person's approval answered confirms: what they ask of the answer (who, how many, how long). */
      readonly answered?: ConfirmTerms | undefined;
    }
  | {
      /** Run it with `input` (the arguments a transform produced). */
      readonly type: 'transform';
      readonly input: unknown;
      readonly answered?: ConfirmTerms | undefined;
    }
  | { readonly type: 'deny'; readonly reason: string; readonly handler: string; readonly text: string }
  | { readonly type: 'guide'; readonly guidance: readonly GuideFeedback[]; readonly text: string }
  | {
      readonly type: 'confirm';
      readonly prompt: string;
      /** What the confirms ask of the answer; `undefined`: anyone, once, no expiry. */
      readonly terms: ConfirmTerms | undefined;
      /** The arguments the human is asked about, when a transform changed them. */
      readonly input: { readonly value: unknown } | undefined;
      /** The feedback of the guides the confirm outranks: the person is shown it with the request. */
      readonly guidance?: readonly GuideFeedback[] | undefined;
    };

/** An approval status of the SDK's `toolApproval`. */
export type ApprovalStatus =
  | { readonly type: 'not-applicable' }
  | { readonly type: 'approved'; readonly reason?: string }
  | { readonly type: 'denied'; readonly reason?: string }
  | { readonly type: 'user-approval'; readonly reason?: string };

const NOT_APPLICABLE: ApprovalStatus = Object.freeze({ type: 'not-applicable' });

/** The status the run's `toolApproval` answers for a decision. */
export function approvalStatusOf(decision: ToolCallDecision): ApprovalStatus {
  switch (decision.type) {
    case 'proceed':
    case 'transform':
      return NOT_APPLICABLE;
    case 'deny':
    case 'guide':
      return { type: 'denied', reason: decision.text };
    case 'confirm':
      // the person is shown the feedback of the guides the confirm outranks with its prompt
      return {
        type: 'user-approval',
        reason: decision.guidance === undefined ? decision.prompt : `${decision.prompt}\n${formatGuidance(decision.guidance)}`,
      };
    default:
      return unreachable(decision);
  }
}

/** The input a decision runs the call with, when it is not the model's. */
export function decidedInput(decision: ToolCallDecision): { readonly value: unknown } | undefined {
  switch (decision.type) {
    case 'transform':
      return { value: decision.input };
    case 'confirm':
      return decision.input;
    case 'proceed':
    case 'deny':
    case 'guide':
      return undefined;
    default:
      return unreachable(decision);
  }
}
