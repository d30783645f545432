/**
 * `ai-interventions`: the runtime (`createInterventions`), handlers and
 * actions, hooks, the built-in handlers, redaction, stores, queues and errors.
 *
 * @module ai-interventions
 */

// the runtime

export type { ApprovalRecord, DecisionRecord, DecisionTrailPosition, HandlerMode } from './actions/decision-record.ts';
// handlers and actions
export {
  type ActionType,
  type Approvers,
  type Confirm,
  type ConfirmOptions,
  type Deny,
  type Guide,
  type InterventionAction,
  InterventionActions,
  type Proceed,
  type Transform,
} from './actions/intervention-actions.ts';
export type {
  AfterModelCallEvent,
  AfterToolCallEvent,
  AnsweredApproval,
  ApprovalAnswerInfo,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  InterventionEvent,
  ModelCallSettings,
  RunEventContext,
  ToolCallInfo,
} from './actions/intervention-events.ts';
export {
  ACTION_EFFECTS,
  type AfterModelCallAction,
  type AfterToolCallAction,
  type BeforeInvocationAction,
  type BeforeModelCallAction,
  type BeforeToolCallAction,
  LIFECYCLES,
  type Lifecycle,
} from './actions/lifecycle.ts';
export { type CacheHooks, type CacheOptions, type CacheStats, cache } from './builtins/cache.ts';
export { type CallBudgetOptions, callBudget } from './builtins/call-budget.ts';
export { flowPolicy } from './builtins/flow-policy.ts';
export type { FlowDecision, FlowPolicyOptions, FlowSources } from './builtins/flow-policy-options.ts';
export {
  forTool,
  type TypedAfterToolCallEvent,
  type TypedBeforeToolCallEvent,
  type TypedToolCall,
  type TypedToolHandler,
} from './builtins/for-tool.ts';
export { humanApproval } from './builtins/human-approval.ts';
export type { HumanApprovalOptions } from './builtins/human-approval-options.ts';
export { type LlmSteeringOptions, llmSteering, type SteeringPoint } from './builtins/llm-steering.ts';
export { loopGuard } from './builtins/loop-guard.ts';
export type { LoopDetection, LoopGuardOptions } from './builtins/loop-guard-options.ts';
export { type RateLimitKeyPart, type RateLimitOptions, rateLimit } from './builtins/rate-limit.ts';
// built-in handlers
export {
  type ToolPattern,
  type ToolPatterns,
  toolMatcher,
  toolPolicy,
} from './builtins/tool-policy.ts';
export type {
  ToolPolicyCondition,
  ToolPolicyDefault,
  ToolPolicyMessage,
  ToolPolicyOptions,
  ToolPolicyRule,
} from './builtins/tool-policy-options.ts';
export {
  type TruncatedToolResult,
  type TruncateToolResultOptions,
  truncateToolResult,
} from './builtins/truncate-tool-result.ts';
// approvals answered in a chat UI, and the decisions it shows (also in 'ai-interventions/client')
export {
  APPROVAL_ANSWER_PREFIX,
  type ApprovalAnswer,
  type ApprovalRemember,
  approvalAnswer,
  approvalReasonText,
  type ReadAnswer,
  readApprovalAnswer,
} from './client/approval-answer.ts';
export { approvalOf } from './client/approval-of.ts';
export { type ApprovalPerson, canAnswer } from './client/can-answer.ts';
export type {
  ApproversData,
  InterventionApprovalData,
  InterventionData,
  InterventionDataTypes,
  InterventionRecordData,
  InterventionUIMessage,
} from './client/intervention-data.ts';
export { ApprovalOutcomeUnavailableError } from './errors/approval-outcome-unavailable-error.ts';
export { ApprovalSecretRequiredError } from './errors/approval-secret-required-error.ts';
export { DecisionTrailError } from './errors/decision-trail-error.ts';
export { GuardNotEnforcedError } from './errors/guard-not-enforced-error.ts';
export { HandlerTimeoutError } from './errors/handler-timeout-error.ts';
export { InterventionHandlerError } from './errors/intervention-handler-error.ts';
// errors
export { InterventionsError, type InterventionsErrorCode } from './errors/interventions-error.ts';
export { InterventionsWarning, type InterventionsWarningCode } from './errors/interventions-warning.ts';
export { InvalidActionError } from './errors/invalid-action-error.ts';
export { InvalidHandlerError } from './errors/invalid-handler-error.ts';
export { InvalidHookError } from './errors/invalid-hook-error.ts';
export { InvalidHookResultError } from './errors/invalid-hook-result-error.ts';
export { InvalidOptionError } from './errors/invalid-option-error.ts';
export { InvocationDeniedError } from './errors/invocation-denied-error.ts';
export { ToolCallBlockedError } from './errors/tool-call-blocked-error.ts';
export { UnknownOptionError } from './errors/unknown-option-error.ts';
export { actionDigestOf } from './handlers/action-digest.ts';
export { defineHandler } from './handlers/define-handler.ts';
export {
  defineToolGate,
  type ToolGateEvent,
  type ToolGateResult,
} from './handlers/define-tool-gate.ts';
export {
  InterventionHandler,
  type InterventionHandlerLike,
  type OnError,
  type ToolCallActionType,
} from './handlers/intervention-handler.ts';
export type { GuideFeedback } from './handlers/verdict.ts';
export { defaultWording, formatGuidance, type Wording } from './handlers/wording.ts';
// hooks
export type {
  ChatResponse,
  DrainContext,
  DrainResult,
  GateToolCallsContext,
  HookName,
  HooksConfig,
  InterventionHooks,
  ModelHookContext,
  OnChatAbortContext,
  OnChatDoneContext,
  OnChatErrorContext,
  OnChatStartContext,
  OnDecisionContext,
  OnMessageContext,
  OnResponseContext,
  OnResponseResult,
  OnStatusContext,
  OnToolCallErrorContext,
  OnToolCallErrorResult,
  OnToolCallResultContext,
  OnToolCallResultResult,
  PreRequestContext,
  PreRequestResult,
  PreToolCallContext,
  PreToolCallResult,
  ProviderRequest,
  ProviderResponse,
  RunStatus,
  ToolHookContext,
  TransformContextContext,
} from './hooks/hook-types.ts';
export { mergeHooks } from './hooks/merge-hooks.ts';
export { thrownByHook } from './hooks/thrown-by-hook.ts';
export type { ApprovalGrant, GrantOptions, InboxGrant } from './inbox/approval-grant.ts';
// the approval inbox: requests waiting for people, answered by id, resumed without the requester's chat
export type { ApprovalInbox, ApprovalInboxOptions, InboxAnswer, InboxRequest } from './inbox/approval-inbox.ts';
export type { ApprovalNotification } from './inbox/approval-notification.ts';
export { createApprovalInbox } from './inbox/create-approval-inbox.ts';
export type { InboxAnswerInput, InboxAnswerResult, InboxListOptions, InterventionsInbox } from './inbox/interventions-inbox.ts';
export type { PendingApproval, PendingApprovalStatus } from './inbox/pending-approval.ts';
export type {
  ApprovalClaim,
  ApprovalLedger,
  ApprovalLedgerOptions,
  ApprovalOutcome,
  ApprovalWaitOptions,
} from './ledger/approval-ledger.ts';
export { createApprovalLedger } from './ledger/create-approval-ledger.ts';
export type { LoopOptions } from './loop/loop-control.ts';
// loop control (seeds 001–003)
export { createMessageQueue, type MemoryMessageQueue, type MessageQueue } from './queue/create-message-queue.ts';
export {
  createRedisMessageQueue,
  type RedisMessageQueue,
  type RedisMessageQueueOptions,
} from './queue/create-redis-message-queue.ts';
export { createRedactionHandler, type RedactedToolValue, type RedactionHandler } from './redaction/create-redaction-handler.ts';
// redaction
export {
  createRedactor,
  type RedactionRule,
  type Redactor,
} from './redaction/create-redactor.ts';
export type { PiiKind } from './redaction/pii-rules.ts';
export { type RedactPiiOptions, redactPii } from './redaction/redact-pii.ts';
export {
  type RedactSecretsOptions,
  redactSecrets,
  SECRET_PATTERNS,
  SENSITIVE_KEYS,
} from './redaction/redact-secrets.ts';
export type { ToolErrorDetails, ToolErrorRedacting } from './redaction/redact-tool-error.ts';
export type { RedactionStream } from './redaction/redaction-stream.ts';
export { DENIED_FINISH_REASON } from './run/denied-model.ts';
export type { InterventionsReport } from './run/interventions-report.ts';
// what each entry path enforces
export {
  CAPABILITIES,
  type Capability,
  ENTRY_PATHS,
  type EntryPath,
  type GuardKind,
  type Layer,
  type ObserverHook,
  PATH_LABELS,
  type ToolRefusal,
} from './runtime/capabilities.ts';
export { createInterventions } from './runtime/create-interventions.ts';
// tools without the runtime
export { guardTool } from './runtime/guard-tool.ts';
export { type GuardOptions, guardTools } from './runtime/guard-tools.ts';
export type {
  Interventions,
  InterventionsGenerateText,
  InterventionsResult,
  InterventionsStreamText,
  WrapToolsOptions,
} from './runtime/interventions.ts';
export type { InterventionsOptions } from './runtime/interventions-options.ts';
export { createMemoryStore } from './store/create-memory-store.ts';
export {
  createRedisStore,
  type RedisStoreClient,
  type RedisStoreOptions,
} from './store/create-redis-store.ts';
export type { RedisScriptClient } from './store/eval-script.ts';
// stores
export type { Store } from './store/store.ts';
export { type ToolAnnotationHints, toolAnnotations } from './tools/tool-annotations.ts';
// tool scopes: the one syntax of every `tools` option
export {
  type ToolAnnotationSelector,
  type ToolNamePattern,
  type ToolScope,
  type ToolScopeMatcher,
  type ToolSelector,
  toolScope,
} from './tools/tool-scope.ts';
// trust: which tools' own annotations count
export { trustToolAnnotations } from './tools/trust-tool-annotations.ts';
// decision trails
export {
  createDecisionTrail,
  type DecisionTrail,
  type DecisionTrailContext,
  type DecisionTrailOptions,
} from './trail/create-decision-trail.ts';
export type { DecisionTrailLink, DecisionTrailRecord } from './trail/decision-trail-link.ts';
export {
  type DecisionTrailAnchor,
  type DecisionTrailBreak,
  type DecisionTrailCheck,
  type DecisionTrailSource,
  verifyDecisionTrail,
} from './trail/verify-decision-trail.ts';
export { type ToInterventionsUIMessageStreamOptions, toInterventionsUIMessageStream } from './ui/to-interventions-ui-message-stream.ts';
export type { Awaitable } from './util/awaitable.ts';
