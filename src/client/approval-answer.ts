/*
 * Typed answers to approval requests, for the browser and the server alike:
 * no runtime import, so a client bundle that imports `ai-interventions/client`
 * pulls in nothing else.
 *
 * `useChat`'s `addToolApprovalResponse({ id, approved, reason })` carries
 * only a string `reason`, so a typed answer travels in it, behind a prefix a
 * person never types. The runtime decodes it before the SDK, a tool or the
 * model reads it.
 */

/**
 * Marks a `reason` that holds a typed answer (version 1): what
 * {@link approvalAnswer} writes before the answer's JSON.
 *
 * @example
 * ```ts
 * const typed = (reason: string | undefined) => reason?.startsWith(APPROVAL_ANSWER_PREFIX) === true;
 * ```
 */
export const APPROVAL_ANSWER_PREFIX = 'ai-interventions/approval-answer@1:';

/**
 * What a person asks to remember with their answer: `'once'` (this call
 * only, the default), `'session'` (matching calls of this conversation) or
 * `'always'` (matching calls from now on: for a refusal, never ask again and
 * always deny). `humanApproval` honours it.
 *
 * @example
 * ```ts
 * const remember: ApprovalRemember = 'session';
 * addToolApprovalResponse(approvalAnswer({ id: part.approval.id, approved: true, remember }));
 * ```
 */
export type ApprovalRemember = 'once' | 'session' | 'always';

/**
 * A person's answer to an approval request.
 *
 * @example
 * ```ts
 * const refusal: ApprovalAnswer = { approved: false, reason: 'Not that folder', remember: 'always' };
 * const edit: ApprovalAnswer = { approved: true, input: { path: '/tmp/build-cache/old' } };
 * ```
 */
export interface ApprovalAnswer {
  readonly approved: boolean;
  /**
   * Why, in the person's words. A refusal's reason reaches the model (inside
   * the runtime's `rejectedCall` wording); an approval's is only recorded.
   */
  readonly reason?: string | undefined;
  /** What to remember. Default `'once'`. */
  readonly remember?: ApprovalRemember | undefined;
  /**
   * Approve these arguments instead of the model's (edit before approve). The
   * runtime validates them against the tool's input schema, runs every
   * handler again on them, writes them into the history's tool call and signs
   * them. Only with `approved: true`.
   */
  readonly input?: unknown;
}

/**
 * What `addToolApprovalResponse` (useChat) takes, with a typed answer encoded
 * in `reason`. The server decodes it: the model never reads the encoding.
 *
 * @example
 * ```tsx
 * // in a useChat page, for a tool part in the 'approval-requested' state
 * const buttons = (
 *   <>
 *     <button onClick={() => addToolApprovalResponse(approvalAnswer({ id: part.approval.id, approved: true, remember: 'session' }))}>
 *       Allow for this chat
 *     </button>
 *     <button onClick={() => addToolApprovalResponse(approvalAnswer({ id: part.approval.id, approved: false, reason: 'Not now' }))}>
 *       Deny
 *     </button>
 *   </>
 * );
 * ```
 */
export function approvalAnswer({ id, ...answer }: ApprovalAnswer & { readonly id: string }): {
  id: string;
  approved: boolean;
  reason: string;
} {
  const problem = answerProblem(answer);
  if (problem !== undefined) throw new TypeError(`approvalAnswer: ${problem}.`);
  const payload: Record<string, unknown> = { approved: answer.approved };
  if (answer.reason !== undefined) payload.reason = answer.reason;
  if (answer.remember !== undefined && answer.remember !== 'once') payload.remember = answer.remember;
  if (answer.input !== undefined) payload.input = answer.input;
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch (error) {
    throw new TypeError(`approvalAnswer: the edited input is not JSON (${String(error)}).`);
  }
  return { id, approved: answer.approved, reason: `${APPROVAL_ANSWER_PREFIX}${json}` };
}

/**
 * A typed answer as the runtime reads it: `remember` defaulted, and an edit
 * (`input`) kept apart from "no edit".
 *
 * @example
 * ```ts
 * const read = readApprovalAnswer(part.approval.reason, part.approval.approved);
 * if (read.type === 'answer' && read.answer.input !== undefined) console.log('edited to', read.answer.input.value);
 * ```
 */
export interface ReadAnswer {
  readonly approved: boolean;
  readonly reason: string | undefined;
  readonly remember: ApprovalRemember;
  /** The arguments the person approved instead of the model's. */
  readonly input: { readonly value: unknown } | undefined;
}

/**
 * Decodes the `reason` of an approval response: `'plain'` when it is not a
 * typed answer (a person's own text, or nothing), `'answer'` with the typed
 * answer, or `'malformed'` with what is wrong (the prefix is there, but what
 * follows is not a valid answer, or it contradicts `approved` when given).
 *
 * @example
 * ```ts
 * const { reason } = approvalAnswer({ id: 'approval-1', approved: false, reason: 'Not now', remember: 'always' });
 * readApprovalAnswer(reason, false); // { type: 'answer', answer: { approved: false, reason: 'Not now', remember: 'always', input: undefined } }
 * readApprovalAnswer('Not now', false); // { type: 'plain' }
 * ```
 */
export function readApprovalAnswer(
  reason: string | undefined,
  approved?: boolean,
):
  | { readonly type: 'plain' }
  | { readonly type: 'answer'; readonly answer: ReadAnswer }
  | { readonly type: 'malformed'; readonly problem: string } {
  if (!isTypedAnswer(reason)) return { type: 'plain' };
  let value: unknown;
  try {
    value = JSON.parse(reason.slice(APPROVAL_ANSWER_PREFIX.length));
  } catch {
    return { type: 'malformed', problem: 'what follows the prefix is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { type: 'malformed', problem: 'the answer is not an object' };
  }
  const answer = value as Record<string, unknown>;
  const unknownKey = Object.keys(answer).find((key) => !ANSWER_KEYS.has(key));
  if (unknownKey !== undefined) return { type: 'malformed', problem: `unknown field ${JSON.stringify(unknownKey)}` };
  const problem = answerProblem(answer);
  if (problem !== undefined) return { type: 'malformed', problem };
  if (approved !== undefined && answer.approved !== approved) {
    return {
      type: 'malformed',
      problem: `the answer says approved: ${String(answer.approved)}, the response approved: ${String(approved)}`,
    };
  }
  return {
    type: 'answer',
    answer: {
      approved: answer.approved as boolean,
      reason: answer.reason as string | undefined,
      remember: (answer.remember as ApprovalRemember | undefined) ?? 'once',
      input: Object.hasOwn(answer, 'input') ? { value: answer.input } : undefined,
    },
  };
}

/**
 * What to show for the `reason` of an approval response (a tool part's
 * `approval.reason` in `useChat` messages): the person's own words, decoded
 * from a typed answer ({@link approvalAnswer}), a plain reason as it is,
 * and nothing for a typed answer without words or one that cannot be read.
 * The one way to read a typed answer for display.
 *
 * @example
 * ```ts
 * const { reason } = approvalAnswer({ id: 'approval-1', approved: false, reason: 'Keep it until Friday', remember: 'always' });
 * approvalReasonText(reason); // 'Keep it until Friday'
 * approvalReasonText('Not now'); // 'Not now'
 * // in a chat UI: {part.approval?.reason ? <q>{approvalReasonText(part.approval.reason)}</q> : null}
 * ```
 */
export function approvalReasonText(reason: string | undefined): string | undefined {
  const read = readApprovalAnswer(reason);
  switch (read.type) {
    case 'plain':
      return reason;
    case 'answer':
      return read.answer.reason;
    case 'malformed':
      return undefined;
  }
}

/** Whether a `reason` holds a typed answer (well-formed or not). */
export function isTypedAnswer(reason: unknown): reason is string {
  return typeof reason === 'string' && reason.startsWith(APPROVAL_ANSWER_PREFIX);
}

const ANSWER_KEYS = new Set(['approved', 'reason', 'remember', 'input']);
const REMEMBER = new Set<unknown>(['once', 'session', 'always']);

function answerProblem(answer: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof answer.approved !== 'boolean') return '`approved` must be a boolean';
  if (answer.reason !== undefined && typeof answer.reason !== 'string') return '`reason` must be a string';
  if (answer.remember !== undefined && !REMEMBER.has(answer.remember)) {
    return "`remember` must be 'once', 'session' or 'always'";
  }
  if (answer.input !== undefined && answer.approved !== true) return 'only an approval may edit the input';
  return undefined;
}
