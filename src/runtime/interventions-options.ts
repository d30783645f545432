import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { Wording } from '../handlers/wording.ts';
import type { HooksConfig } from '../hooks/hook-types.ts';
import type { ApprovalInbox } from '../inbox/approval-inbox.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import type { Redactor } from '../redaction/create-redactor.ts';
import type { DecisionTrail } from '../trail/create-decision-trail.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * Options of {@link createInterventions}: the handlers and hooks of the
 * runtime, and how decisions read to the model. Every field is optional.
 *
 * @example
 * ```ts
 * const options: InterventionsOptions = {
 *   handlers: [new ToolGuard(['delete_file'])],
 *   hooks: { onDecision: ({ record }) => console.log(record.handler, record.action) },
 *   maxGuideRetries: 1,
 *   approvalSecret: process.env.APPROVAL_SECRET, // the same on every instance, with a ledger they share
 *   approvalLedger: createApprovalLedger({ store: redisStore }),
 * };
 * const interventions = createInterventions(options);
 * ```
 */
export interface InterventionsOptions {
  /** Intervention handlers, evaluated in this order. Names must be unique. */
  readonly handlers?: readonly InterventionHandlerLike[];
  /** Hooks by event: one function or a list. More can be added with `addHook`. */
  readonly hooks?: HooksConfig;
  /** Replace any of the texts the model reads after a decision. */
  readonly wording?: Partial<Wording>;
  /**
   * Which tool calls get a `data-intervention` part in the UI message
   * stream: `'acted'` (the default) only those a handler acted on (a deny,
   * guide, confirm or transform, a remembered answer, a failure, a person's
   * edit, a replayed approval); `'all'` every call a handler or gate decided,
   * `proceed` included (a full decision log in the UI).
   */
  readonly decisionParts?: 'acted' | 'all';
  /**
   * How many times an `afterModelCall` guide may discard a response and
   * retry the model within one step. Default 2; after that the response is
   * kept and the guide is recorded as not enforced.
   */
  readonly maxGuideRetries?: number;
  /**
   * How long a handler may take, in ms, when it sets no `timeoutMs` of its
   * own: past it the handler is treated as having thrown, and its `onError`
   * decides (a run is never held forever by a handler that never settles).
   * Default 30 seconds; `false`: no default timeout.
   */
  readonly handlerTimeoutMs?: number | false;
  /**
   * A secret that signs approval requests (HMAC of the approval, the call
   * and its arguments), so a forged or edited `tool-approval-response`
   * never executes anything. Used as `experimental_toolApprovalSecret` when
   * a call does not set its own. Default: a random secret generated for
   * this runtime, which binds approvals just as well within one process,
   * but which another instance (or this one after a restart) does not know:
   * such an approval is refused for the person, typed: nothing runs, the
   * model reads that the approval could no longer be verified (and may ask
   * again), the tool part ends `output-denied`, and a `deny` record of
   * `'approval-verification'` says why. Set the same secret on every
   * instance (then a bad signature is a forgery: the SDK's
   * `InvalidToolApprovalSignatureError`). Without it, while the approval
   * ledger (or `humanApproval`'s `remember.store`) is on a shared store,
   * creating the runtime warns once (`InterventionsWarning`, code
   * `'approval-secret-per-instance'`). At least 32 bytes (a string's
   * UTF-8; HMAC-SHA256 wants a key as long as its output), e.g. from
   * `openssl rand -base64 32`: an empty or shorter one (an environment
   * variable that is not set) is an `InvalidOptionError` here.
   *
   * A list rotates keys: the current key first, then previous keys. New
   * approvals are signed with the current key; one signed with a previous
   * key still verifies, and is signed again with the current key before
   * the SDK (which verifies with one secret) reads it; a forged one is
   * never signed again. A previous entry that is `undefined` (a variable
   * not set) is left out; every key given is checked as above, by its entry
   * (`approvalSecret[1]`).
   */
  readonly approvalSecret?: string | Uint8Array | readonly (string | Uint8Array | undefined)[];
  /**
   * Where used approvals are remembered, so an approved call runs at most
   * once even when the resume request is replayed or sent twice. Default: in
   * memory, per runtime: "once" then holds per instance only. With an
   * `approvalSecret` (or `humanApproval`'s requests on a shared store) and
   * this default, creating the runtime warns once (`InterventionsWarning`,
   * code `'approval-ledger-in-memory'`, and an `onStatus` warning); give a
   * ledger on a shared store to every instance, or `createApprovalLedger()`
   * to keep it in memory on purpose. With this ledger on a shared store, a
   * built-in's store or a trail left in memory warns (`'state-in-memory'`).
   * `false` turns the check off.
   */
  readonly approvalLedger?: ApprovalLedger | false;
  /**
   * Where each request a handler's `confirm` makes waits for the people who
   * answer it (`interventions.inbox`: list, answer by id, resume without the
   * requester's chat; `notify` tells the app). Default: in memory, per
   * runtime (this process only); for several instances give every one
   * `createApprovalInbox({ store })` on the store they share. `false`: no
   * inbox.
   */
  readonly approvalInbox?: ApprovalInbox | false;
  /**
   * Redact the model's text before anything else sees it: in
   * `generateText` and in `streamText` as it streams (a secret split across
   * chunks is still caught), so the streamed text, the result, the response
   * messages and the UI stream all carry the same redacted text.
   */
  readonly redactors?: readonly Redactor[];
  /**
   * A tamper-evident trail of every decision record
   * (`createDecisionTrail({ store, key })`): each record, once its decision
   * is final and before the call it decides goes on, is appended to a chain
   * (per conversation, or per store key) as a link carrying the hash of the
   * link before it; `verifyDecisionTrail` says where a chain was altered,
   * reordered or cut. A record that cannot be written ends the call with a
   * `DecisionTrailError` (fail closed). Records then carry their
   * `actionDigest`. Default: none.
   */
  readonly trail?: DecisionTrail;
  /**
   * Give every decision record its `actionDigest` (the SHA-256 of the exact
   * action: the tool, the arguments as decided, the action and its words)
   * without a trail, e.g. for `onDecision` hooks or `telemetry()` spans.
   * Default `false` (with a `trail`: always): nothing is hashed, and a run
   * whose handlers answer at once stays synchronous.
   */
  readonly actionDigests?: boolean;
  /**
   * The version of your policy (handlers, rules, prompts) the decisions are
   * made under, e.g. a release or a commit: every decision record carries
   * it as `policyVersion`. A non-empty string.
   */
  readonly policyVersion?: string;
  /**
   * A handler's (or a built-in's) `tools` scope that matches no tool of a
   * run (`delete_file` where the tool is `deleteFile`) applies to nothing
   * there. By default it is reported once (an `InterventionsWarning`,
   * `'scope-matches-no-tool'`, naming the scope, the handler and the closest
   * tool names, and an `onStatus` warning); with `true` it is an
   * `InvalidHandlerError` (`'scope-matches-no-tool'`) when the run starts,
   * the tools are wrapped, or the handler is registered after them.
   */
  readonly strictScopes?: boolean;
}

/** The keys of {@link InterventionsOptions}: `createInterventions` checks its options against them. */
export const INTERVENTIONS_OPTIONS = knownOptions<InterventionsOptions>({
  handlers: true,
  hooks: true,
  wording: true,
  decisionParts: true,
  maxGuideRetries: true,
  handlerTimeoutMs: true,
  approvalSecret: true,
  approvalLedger: true,
  approvalInbox: true,
  redactors: true,
  trail: true,
  actionDigests: true,
  policyVersion: true,
  strictScopes: true,
});
