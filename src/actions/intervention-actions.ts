import type { InterventionEvent } from '../handlers/intervention-events.ts';

/** Let the operation continue unchanged. */
export interface Proceed {
  readonly type: 'proceed';
}

/** Block the operation. Later handlers do not run. */
export interface Deny {
  readonly type: 'deny';
  readonly reason: string;
}

/** Cancel the operation (or steer the model) with feedback it can act on. */
export interface Guide {
  readonly type: 'guide';
  readonly feedback: string;
}

/** Pause for a human's approval (tool calls only). */
export interface Confirm {
  readonly type: 'confirm';
  readonly prompt: string;
}

/**
 * Change the operation's content before it continues.
 *
 * `apply` receives a draft of the event: it may mutate the draft in place, or
 * return a replacement event of the same lifecycle. Later handlers see the
 * draft; it is committed only if no handler denies.
 */
export interface Transform<EVENT extends InterventionEvent = InterventionEvent> {
  readonly type: 'transform';
  apply(draft: EVENT): EVENT | void | PromiseLike<EVENT | void>;
}

/**
 * Any action a handler may return. Discriminated on `type`.
 *
 * @example
 * ```ts
 * function describe(action: InterventionAction): string {
 *   switch (action.type) {
 *     case 'proceed': return 'ok';
 *     case 'deny': return `denied: ${action.reason}`;
 *     case 'guide': return `guided: ${action.feedback}`;
 *     case 'confirm': return `ask: ${action.prompt}`;
 *     case 'transform': return 'transformed';
 *   }
 * }
 * ```
 */
export type InterventionAction =
  | Proceed
  | Deny
  | Guide
  | Confirm
  | Transform<InterventionEvent>;

/** The `type` of an action: `'proceed' | 'deny' | 'guide' | 'confirm' | 'transform'`. */
export type ActionType = InterventionAction['type'];

const PROCEED: Proceed = Object.freeze({ type: 'proceed' });

/**
 * Factories for the five typed actions a handler returns.
 *
 * Precedence when several handlers answer: deny > confirm > guide >
 * transform > proceed. `deny` short-circuits; `guide` feedback from every
 * handler is collected; `confirm` is asked at most once, after every other
 * handler ran without a deny.
 *
 * @example
 * ```ts
 * class DeleteApproval extends InterventionHandler {
 *   readonly name = 'delete-approval';
 *   override beforeToolCall(event: BeforeToolCallEvent) {
 *     if (event.toolCall.toolName === 'delete_file') {
 *       const input = event.toolCall.input as Record<string, string>;
 *       return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
 *     }
 *     return InterventionActions.proceed();
 *   }
 * }
 * ```
 */
export const InterventionActions = Object.freeze({
  /** Allow the operation to continue unchanged. */
  proceed(): Proceed {
    return PROCEED;
  },
  /** Block the operation; the reason reaches the model. */
  deny(reason: string): Deny {
    return { type: 'deny', reason };
  },
  /** Cancel and give the model feedback to retry with (or steer a model call). */
  guide(feedback: string): Guide {
    return { type: 'guide', feedback };
  },
  /** Ask a human to approve the tool call; the prompt is shown to them. */
  confirm(prompt: string): Confirm {
    return { type: 'confirm', prompt };
  },
  /** Modify the event: mutate the draft, or return a replacement. */
  transform<EVENT extends InterventionEvent = InterventionEvent>(
    apply: (draft: EVENT) => EVENT | void | PromiseLike<EVENT | void>,
  ): Transform<EVENT> {
    return { type: 'transform', apply };
  },
});
