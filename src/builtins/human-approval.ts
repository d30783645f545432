import type { ToolSet } from 'ai';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent, RunEventContext, ToolCallInfo } from '../actions/intervention-events.ts';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { ApprovalRemember } from '../client/approval-answer.ts';
import { declareStores } from '../handlers/declared-stores.ts';
import { declareWarnings } from '../handlers/declared-warnings.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import { markOptionalLifecycles } from '../handlers/optional-lifecycles.ts';
import { createMemoryStore } from '../store/create-memory-store.ts';
import { declaredScope, declareScopes } from '../tools/declared-scopes.ts';
import { checkHumanApprovalOptions, type HumanApprovalOptions } from './human-approval-options.ts';
import {
  ANSWERED_TTL_MS,
  type Answered,
  DAY_MS,
  defaultOwner,
  defaultSession,
  formatDuration,
  type Memory,
  type Owner,
  PENDING_TTL_MS,
  type PendingRequest,
  parseAnswered,
  parsePending,
  requestId,
} from './remembered-answers.ts';

/**
 * Asks a human before matching tool calls run (`confirm`, i.e. AI SDK 7's
 * `tool-approval-request`), and remembers their answer when they say so.
 *
 * **How the UI answers.** A typed answer says what to remember: with
 * `useChat`, `addToolApprovalResponse(approvalAnswer({ id: part.approval.id,
 * approved: true, remember: 'always' }))` (or `'session'`, `'once'`, the
 * default), and the same with `approved: false` for a refusal
 * (`approvalAnswer` is in `ai-interventions/client`). A later matching call
 * is then allowed (or denied) without asking: `'always'` for the scope (the
 * user) and tool, `'session'` for the conversation
 * (`runtimeContext.sessionId`; with no session id it counts as `'once'`). A
 * plain response (`{ id, approved, reason }`) counts as `'once'`. Without a
 * user (`runtimeContext.userId`, or your own `remember.scope`) an answer's
 * owner cannot be told apart, so `'always'` counts as `'session'`: one
 * person's "always" never approves another person's calls.
 *
 * **The audit log says why.** A call allowed by a remembered answer has a
 * `proceed` decision record of this handler whose `reason` says so
 * (`Allowed without asking: remembered, the user chose to always allow
 * "delete_file".`); the resume that remembered an answer says what was
 * remembered, and for how long.
 *
 * **Remembered only what was asked.** When it asks, the handler stores the
 * request (its time, what it covers) in the store under the scope and the
 * call's identity: the conversation, the tool call id, the tool name and the
 * arguments (a provider numbers calls `call_0` every turn, in every chat, so
 * the id alone names nothing). An answer is remembered only when it matches
 * such a request of the same scope and conversation, for the tool and
 * arguments it asked about, so a response the client made up, one for
 * another user's call, or one from another chat, never grants anything
 * lasting.
 *
 * **Several instances.** With a shared store (`createRedisStore`), the
 * pending request is answered once: the first resume of an approval claims
 * it atomically (`setIfAbsent`) with its decision, so only that resume
 * remembers the answer, and every replay of the approval (on any instance,
 * for 24 hours) gets the same decision; a refusal's request is taken with an
 * atomic `getAndDelete`.
 *
 * **Expiry.** With `expiresInMs`, an approval that arrives later than that
 * after the request is refused before the handler decides again, by the
 * runtime, on the approval ledger's clock (the store's, whatever the asking
 * instance's says; recorded as `approval-expiry`); one that matches no
 * stored request (expired, already used, another scope) is refused by the
 * handler: the call does not run and the model reads that the approval expired. Refusals are always honoured. The
 * request time lives in the store because the approval response carries
 * only the approval id, which the handler cannot know when it asks; the
 * call's identity, which it can, finds the request in both places. Its
 * former name, `timeoutMs`, still works and warns (`'deprecated-option'`).
 *
 * Approvals are signed and bound to the exact call and arguments (with a
 * secret of the runtime by default); with several instances, give
 * `createInterventions` the same `approvalSecret` on each, and an
 * `approvalLedger` on the store they share.
 *
 * @example
 * ```ts
 * const approval = humanApproval({ tools: ['delete_*', 'deploy'], expiresInMs: 15 * 60_000 });
 * const interventions = createInterventions({ handlers: [approval] });
 *
 * // a route handler: the runtime context is trusted, server-side
 * const result = interventions.streamText({
 *   model, tools, messages,
 *   runtimeContext: { userId: session.userId, sessionId: session.chatId },
 * });
 * // the UI: addToolApprovalResponse(approvalAnswer({ id: part.approval.id, approved: true, remember: 'session' }))
 * ```
 */
export function humanApproval<TOOLS extends ToolSet = ToolSet>(
  options: HumanApprovalOptions<NoInfer<TOOLS>>,
): InterventionHandlerLike<TOOLS> {
  const { name = 'human-approval', tools, prompt = defaultPrompt, remember = {}, approvers, quorum } = options;
  const { expiresInMs, warnings } = checkHumanApprovalOptions(options, name);
  // who may answer, how many must, and for how long: what every request of this handler asks of its answer (the expiry is
  // also the runtime's, judged by the approval ledger on the store's clock from the moment of asking)
  const asks = {
    ...(approvers === undefined ? {} : { approvers }),
    ...(quorum === undefined ? {} : { quorum }),
    ...(expiresInMs === undefined ? {} : { expiresInMs }),
  };
  const {
    store = createMemoryStore(),
    scope: customScope,
    session: sessionOf = defaultSession,
    key: keyOf = (toolCall: ToolCallInfo) => toolCall.toolName,
    accept = ['session', 'always'],
    sessionTtlMs = DAY_MS,
  } = remember;
  const matches = scopeOfTools(name, tools);
  const accepted = new Set(accept);
  const ownerOf = (context: RunEventContext): Owner =>
    customScope === undefined ? defaultOwner(context) : { scope: customScope(context), known: true };
  const storeKey = (...parts: string[]) => [name, ...parts].map(encodeURIComponent).join(':');
  const keys = {
    pending: (scope: string, request: string) => storeKey('pending', scope, request),
    answered: (scope: string, approvalId: string) => storeKey('answered', scope, approvalId),
    always: (scope: string, key: string) => storeKey('always', scope, key),
    never: (scope: string, key: string) => storeKey('never', scope, key),
    session: (scope: string, session: string, key: string) => storeKey('session', scope, session, key),
    sessionNever: (scope: string, session: string, key: string) => storeKey('session-never', scope, session, key),
  };

  /** Takes (reads and removes, atomically) the request this handler stored for a call. */
  const takePending = async (scope: string, request: string): Promise<PendingRequest | undefined> => {
    const stored = await store.getAndDelete(keys.pending(scope, request));
    return stored === undefined ? undefined : parsePending(stored);
  };

  /**
   * The remembered answer for a call: allowed or refused `'always'` (only
   * for a known owner) or for the conversation; `undefined`: none.
   */
  const remembered = async (owner: Owner, key: string, session: string | undefined): Promise<Memory | undefined> => {
    const { scope } = owner;
    // an owner that cannot be told apart has no 'always' (older stores may hold one under 'anyone': ignored)
    if (owner.known && (await store.get(keys.never(scope, key))) !== undefined) return { approved: false, remember: 'always' };
    if (session !== undefined && (await store.get(keys.sessionNever(scope, session, key))) !== undefined) {
      return { approved: false, remember: 'session' };
    }
    if (owner.known && (await store.get(keys.always(scope, key))) !== undefined) return { approved: true, remember: 'always' };
    if (session !== undefined && (await store.get(keys.session(scope, session, key))) !== undefined) {
      return { approved: true, remember: 'session' };
    }
    return undefined;
  };

  const refusedBefore = (toolCall: ToolCallInfo, memory: Memory) =>
    InterventionActions.deny(
      memory.remember === 'always'
        ? `The user chose never to allow "${toolCall.toolName}" calls.`
        : `The user chose not to allow "${toolCall.toolName}" calls in this conversation.`,
      memory.remember === 'always' ? 'You chose never to allow this.' : 'You chose not to allow this in this chat.',
    );

  const allowedBefore = (toolCall: ToolCallInfo, memory: Memory) =>
    InterventionActions.proceed(
      memory.remember === 'always'
        ? `Allowed without asking: remembered, the user chose to always allow "${toolCall.toolName}".`
        : `Allowed without asking: remembered, the user chose to allow "${toolCall.toolName}" in this conversation.`,
    );

  /**
   * Remembers what the person's answer asks to, for the request it answered;
   * says what was remembered (for the decision record). Without an owner
   * that tells people apart, `'always'` counts as `'session'`.
   */
  const rememberAnswer = async (owner: Owner, pending: PendingRequest, approved: boolean, asked: ApprovalRemember): Promise<string> => {
    const answer = approved ? 'Approved by the user' : 'Refused by the user';
    const { scope } = owner;
    const always = asked === 'always' && accepted.has('always');
    if (always && owner.known) {
      await store.set((approved ? keys.always : keys.never)(scope, pending.key), approved ? 'approved' : 'denied');
      return `${answer}; remembered for every conversation of this user ("always").`;
    }
    const session = (asked === 'session' || always) && accepted.has('session') ? pending.session : undefined;
    if (session !== undefined) {
      await store.set((approved ? keys.session : keys.sessionNever)(scope, session, pending.key), approved ? 'approved' : 'denied', {
        ttlMs: sessionTtlMs,
      });
      return always
        ? `${answer}; "always" was remembered for this conversation only: no user is known (set runtimeContext.userId or remember.scope).`
        : `${answer}; remembered for this conversation ("session").`;
    }
    if (asked === 'once' || !accepted.has(asked)) return `${answer} (once).`;
    return `${answer}, once: remembering needs a conversation id (runtimeContext.sessionId)${always ? ' or a known user' : ''}.`;
  };

  const decided = (toolCall: ToolCallInfo, answered: Answered, reason: string): BeforeToolCallAction =>
    answered === 'expired' && expiresInMs !== undefined ? expired(toolCall, expiresInMs) : InterventionActions.proceed(reason);

  /** A call a human approved, evaluated again on resume (the first time, or a replay). */
  const resumed = async (event: BeforeToolCallEvent, owner: Owner): Promise<BeforeToolCallAction> => {
    const { toolCall, approval } = event;
    const { scope } = owner;
    const session = sessionOf(event);
    // the request asked about the model's arguments, before a person's edit
    const request = await requestId(session, toolCall, approval?.edited === undefined ? toolCall.input : approval.edited.original);
    // per approval, not per call: a later request for a call id a provider reuses is a new approval
    const answeredKey = keys.answered(scope, approval?.approvalId ?? `request:${request}`);
    const pendingKey = keys.pending(scope, request);
    const stored = await store.get(pendingKey);
    if (stored === undefined) {
      // a replay after the first resume took the request: the same decision
      const answered = parseAnswered(await store.get(answeredKey));
      if (answered !== undefined) return decided(toolCall, answered, 'Approved by the user (a replay of an answered approval).');
      // not asked by this handler (another handler's confirm, or a remembered answer)
      const memory = await remembered(owner, keyOf(toolCall), session);
      if (memory?.approved === false) return refusedBefore(toolCall, memory);
      if (memory !== undefined) return allowedBefore(toolCall, memory);
      if (expiresInMs === undefined) return InterventionActions.proceed();
      return expired(toolCall, expiresInMs);
    }
    const pending = parsePending(stored);
    const answered: Answered =
      pending === undefined || (expiresInMs !== undefined && Date.now() - pending.requestedAt > expiresInMs) ? 'expired' : 'approved';
    // one resume answers the request (atomically, on any instance); concurrent replays read its decision
    if (!(await store.setIfAbsent(answeredKey, answered, { ttlMs: ANSWERED_TTL_MS }))) {
      const first = parseAnswered(await store.get(answeredKey)) ?? answered;
      return decided(toolCall, first, 'Approved by the user (a replay of an answered approval).');
    }
    await store.delete(pendingKey);
    const reason =
      pending !== undefined && answered === 'approved'
        ? await rememberAnswer(owner, pending, true, approval?.remember ?? 'once')
        : 'Approved by the user (once).';
    return decided(toolCall, answered, reason);
  };

  // its tools scope is checked against the runs' tools; its beforeInvocation only remembers refusals:
  // a path without an invocation (tools guarded without a run) still asks, so it does not refuse the handler
  const handler: InterventionHandlerLike<TOOLS> = {
    name,
    // it never transforms a call: a streamed step's calls are not held for it
    toolCallActions: ['deny', 'confirm'],
    /** Reads the refusals of the input (the handlers never see a refused call again). */
    async beforeInvocation(event) {
      for (const answer of event.answers) {
        if (answer.approved) continue;
        // remembered for the person who asked (whoever refused), as an approval is
        const asked = answer.asker === undefined ? event : { ...event, runtimeContext: answer.asker };
        const owner = ownerOf(asked);
        const input = answer.edited === undefined ? answer.toolCall.input : answer.edited.original;
        const pending = await takePending(owner.scope, await requestId(sessionOf(asked), answer.toolCall, input));

        if (pending !== undefined) await rememberAnswer(owner, pending, false, answer.remember);
      }
      return InterventionActions.proceed();
    },
    async beforeToolCall(event) {
      if (!matches(event)) return InterventionActions.proceed();
      const owner = ownerOf(event);
      if (event.approved) return resumed(event, owner);

      const key = keyOf(event.toolCall);
      const session = sessionOf(event);
      const memory = await remembered(owner, key, session);
      if (memory?.approved === false) return refusedBefore(event.toolCall, memory);
      if (memory !== undefined) return allowedBefore(event.toolCall, memory);

      const request: PendingRequest = { requestedAt: Date.now(), key, session };
      // keyed by what a provider cannot repeat across conversations: the conversation, the call id, the tool and its arguments
      await store.set(keys.pending(owner.scope, await requestId(session, event.toolCall, event.toolCall.input)), JSON.stringify(request), {
        ttlMs: expiresInMs ?? PENDING_TTL_MS,
      });
      return InterventionActions.confirm(prompt(event), asks);
    },
  };
  markOptionalLifecycles(handler, ['beforeInvocation']);
  declareWarnings(handler, warnings);
  declareStores(handler, [{ option: 'remember.store', store, approvals: true, perInstance: PER_INSTANCE }]);
  return declareScopes(handler, [typeof tools === 'function' ? undefined : declaredScope('tools', tools, name)]);
}

/** What holds per instance only with the requests in one process's memory. */
const PER_INSTANCE =
  'its pending requests and remembered answers are per instance: an answer that reaches another instance finds no request ' +
  '(with expiresInMs it is refused as expired), and a "session" or "always" answer is remembered on one instance only';

function expired(toolCall: ToolCallInfo, expiresInMs: number) {
  return InterventionActions.deny(
    `The approval for "${toolCall.toolName}" expired (approvals must be given within ${formatDuration(expiresInMs)}); ` +
      'ask the user again if the call is still needed.',
  );
}

function defaultPrompt({ toolCall }: BeforeToolCallEvent): string {
  let input: string;
  try {
    input = JSON.stringify(toolCall.input) ?? 'no arguments';
  } catch {
    input = 'its arguments';
  }
  if (input.length > 500) input = `${input.slice(0, 500)}…`;
  return `Allow "${toolCall.toolName}" with ${input}?`;
}

function scopeOfTools(name: string, tools: HumanApprovalOptions['tools']): (event: BeforeToolCallEvent) => boolean {
  if (typeof tools === 'function') return tools;
  const { matches } = declaredScope('tools', tools, name);
  return ({ toolCall, tool }) => matches(toolCall.toolName, tool);
}
