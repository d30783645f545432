import type { InterventionEvent } from './intervention-events.ts';

/**
 * Let the operation continue unchanged: what `InterventionActions.proceed()`
 * returns, and what a handler answers when it has nothing to say.
 *
 * @example
 * ```ts
 * const audit = defineHandler({
 *   name: 'audit',
 *   beforeToolCall: (event): Proceed => {
 *     console.log('tool call:', event.toolCall.toolName);
 *     return InterventionActions.proceed();
 *   },
 * });
 * ```
 */
export interface Proceed {
  readonly type: 'proceed';
  /**
   * Why it may continue, for the decision record (the audit log), when the
   * handler decided something: e.g. a remembered approval. The model never
   * reads it.
   */
  readonly reason?: string;
}

/**
 * Block the operation. Later handlers do not run. Made by
 * `InterventionActions.deny(reason, display?)`: a denied tool call's reason
 * reaches the model as its result (`display`, a short reason for people,
 * reaches the UI only); before the run or a model call, the deny ends it.
 *
 * @example
 * ```ts
 * const action: Deny = InterventionActions.deny('Production database access is not allowed');
 * // returned for a tool call, the model reads: The call to "query" was blocked and was not executed.
 * // Reason: Production database access is not allowed …
 * ```
 */
export interface Deny {
  readonly type: 'deny';
  readonly reason: string;
  /** A short reason for people (the UI); the model reads `reason`. */
  readonly display?: string;
}

/**
 * Cancel the operation (or steer the model) with feedback it can act on.
 * Made by `InterventionActions.guide(feedback)`. It does not short-circuit:
 * every guiding handler's feedback reaches the model, one tagged line each.
 *
 * @example
 * ```ts
 * const action: Guide = InterventionActions.guide('All emails must include a subject line.');
 * // returned by the 'email-validator' handler, the model reads:
 * // [email-validator] All emails must include a subject line.
 * ```
 */
export interface Guide {
  readonly type: 'guide';
  readonly feedback: string;
  /** A short reason for people (the UI); the model reads `feedback`. */
  readonly display?: string;
}

/**
 * Who may answer a confirm, read from the trusted `runtimeContext` of the
 * request that carries the answer (your server sets it, never the
 * conversation): a person is admitted when any criterion given admits them
 * (`userIds`, `roles`, `allow`), or by anyone when none is given; with
 * `excludeAsker`, never the person who asked (the two-person rule).
 *
 * @example
 * ```ts
 * const managers: Approvers = { roles: ['manager'], excludeAsker: true, label: 'a manager other than you' };
 * const action = InterventionActions.confirm('Refund $500?', { approvers: managers });
 * ```
 */
export interface Approvers {
  /** People who may answer, by `runtimeContext.userId`. */
  readonly userIds?: readonly string[];
  /** Roles that may answer: `runtimeContext.roles` (strings) or `runtimeContext.role`. */
  readonly roles?: readonly string[];
  /** Any test of the answering request's runtime context (`approver`) and the asking one's (`asker`). */
  readonly allow?: (approver: Readonly<Record<string, unknown>>, asker: Readonly<Record<string, unknown>>) => boolean;
  /** The person who asked (the same `runtimeContext.userId`) may not answer. Default `false`. */
  readonly excludeAsker?: boolean;
  /** How people are told who may answer ("a manager"). Default: the user ids and roles. */
  readonly label?: string;
}

/**
 * How a confirm is answered: who may answer it, how many distinct people
 * must approve it, and how long it stays open. Given to
 * `InterventionActions.confirm(prompt, options)`.
 *
 * @example
 * ```ts
 * const options: ConfirmOptions = { approvers: { roles: ['finance'] }, quorum: 2, expiresInMs: 15 * 60_000 };
 * const action = InterventionActions.confirm('Pay invoice 42?', options);
 * ```
 */
export interface ConfirmOptions {
  /** A short reason for people, for a decision log (default: the prompt). */
  readonly display?: string;
  /** Who may answer (default: whoever sends the answer). */
  readonly approvers?: Approvers;
  /** How many distinct people (`runtimeContext.userId`) must approve before the call runs. Default 1. */
  readonly quorum?: number;
  /** How long the request may be answered, in ms from when it was asked; later it is recorded as expired. */
  readonly expiresInMs?: number;
}

/**
 * Pause for a human's approval (tool calls only). Made by
 * `InterventionActions.confirm(prompt, options?)`; the call becomes an AI SDK
 * `tool-approval-request` whose `reason` is the prompt.
 *
 * @example
 * ```ts
 * const action: Confirm = InterventionActions.confirm('Approve deleting "/tmp/x"?');
 * // result.content then holds { type: 'tool-approval-request', approvalId, reason: 'Approve deleting "/tmp/x"?' }
 * ```
 */
export interface Confirm extends Omit<ConfirmOptions, 'display'> {
  readonly type: 'confirm';
  readonly prompt: string;
  /** A short reason for people, for a decision log (the prompt is what they are asked). */
  readonly display?: string;
}

/**
 * Change the operation's content before it continues.
 *
 * `apply` receives a draft of the event: it may mutate the draft in place, or
 * return a replacement event of the same lifecycle. Later handlers see the
 * draft; it is committed only if no handler denies.
 *
 * @example
 * ```ts
 * // mutate the draft…
 * InterventionActions.transform<BeforeModelCallEvent>((draft) => { draft.settings.temperature = 0; });
 * // …or return a replacement event
 * InterventionActions.transform<BeforeModelCallEvent>((draft) => ({ ...draft, activeTools: ['search'] }));
 * ```
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
export type InterventionAction = Proceed | Deny | Guide | Confirm | Transform<InterventionEvent>;

/**
 * The `type` of an action: `'proceed' | 'deny' | 'guide' | 'confirm' | 'transform'`.
 * Decision records carry it as `action` (or `'error'`).
 *
 * @example
 * ```ts
 * const result = await interventions.generateText({ model, tools, prompt });
 * const counts = new Map<ActionType, number>();
 * for (const record of result.interventions.decisions) {
 *   if (record.action !== 'error') counts.set(record.action, (counts.get(record.action) ?? 0) + 1);
 * }
 * ```
 */
export type ActionType = InterventionAction['type'];

/** The plain `proceed` (no reason) every `InterventionActions.proceed()` returns: one frozen object, recognized at once by the reducer. */
export const PLAIN_PROCEED: Proceed = Object.freeze({ type: 'proceed' });

/**
 * Factories for the five typed actions a handler returns.
 *
 * Precedence when several handlers answer (seed 000): deny > confirm >
 * guide > transform > proceed. `deny` short-circuits; `guide` feedback from
 * every handler is collected; `confirm` is asked at most once, after every
 * other handler ran without a deny. When a confirm outranks a guide, the
 * person is shown the guide's feedback with the request and their answer
 * counts: an approval runs the call (on resume a guide does not block it, a
 * deny still does), a refusal gives the model their reason with the
 * feedback.
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
  /**
   * Allow the operation to continue unchanged. `reason`: why, for the
   * decision record only (say it when the handler decided something, e.g.
   * a remembered approval, so the audit log can tell why the call ran).
   */
  proceed(reason?: string): Proceed {
    return reason === undefined ? PLAIN_PROCEED : { type: 'proceed', reason };
  },
  /**
   * Block the operation; the reason reaches the model. `display`: a short
   * reason for people, shown in the UI instead (default: the reason).
   */
  deny(reason: string, display?: string): Deny {
    return display === undefined ? { type: 'deny', reason } : { type: 'deny', reason, display };
  },
  /**
   * Cancel and give the model feedback to retry with (or steer a model call).
   * `display`: a short reason for people (default: the feedback).
   */
  guide(feedback: string, display?: string): Guide {
    return display === undefined ? { type: 'guide', feedback } : { type: 'guide', feedback, display };
  },
  /**
   * Ask a human to approve the tool call; the prompt is shown to them.
   * `options`: who may answer, how many must approve, when it expires (see
   * {@link ConfirmOptions}); a string is its `display`, a short reason for a
   * decision log (default: the prompt).
   */
  confirm(prompt: string, options?: string | ConfirmOptions): Confirm {
    if (options === undefined) return { type: 'confirm', prompt };
    return typeof options === 'string' ? { type: 'confirm', prompt, display: options } : { ...options, type: 'confirm', prompt };
  },
  /** Modify the event: mutate the draft, or return a replacement. */
  transform<EVENT extends InterventionEvent = InterventionEvent>(
    apply: (draft: EVENT) => EVENT | void | PromiseLike<EVENT | void>,
  ): Transform<EVENT> {
    return { type: 'transform', apply };
  },
});
