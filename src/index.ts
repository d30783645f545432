// the runtime
export { createInterventions } from './sdk/create-interventions.ts';
export type {
  Interventions,
  InterventionsGenerateText,
  InterventionsOptions,
  InterventionsResult,
  InterventionsStreamText,
} from './sdk/interventions.ts';
export type { InterventionsReport } from './run/interventions-report.ts';
export {
  createApprovalLedger,
  type ApprovalClaim,
  type ApprovalLedger,
  type ApprovalLedgerOptions,
  type ApprovalOutcome,
  type ApprovalWaitOptions,
} from './approvals/approval-ledger.ts';
export { defaultWording, formatGuidance, type Wording } from './run/wording.ts';

// approvals answered in a chat UI, and the decisions it shows (also in 'ai-interventions/client')
export {
  APPROVAL_ANSWER_PREFIX,
  approvalAnswer,
  approvalReasonText,
  readApprovalAnswer,
  type ApprovalAnswer,
  type ApprovalRemember,
  type ReadAnswer,
} from './client/approval-answer.ts';
export type {
  InterventionData,
  InterventionDataTypes,
  InterventionRecordData,
  InterventionUIMessage,
} from './client/intervention-data.ts';
export { toInterventionsUIMessageStream } from './ui/to-interventions-ui-message-stream.ts';
export { DENIED_FINISH_REASON } from './run/denied-model.ts';

// handlers and actions
export {
  InterventionActions,
  type ActionType,
  type Confirm,
  type Deny,
  type Guide,
  type InterventionAction,
  type Proceed,
  type Transform,
} from './actions/intervention-actions.ts';
export {
  InterventionHandler,
  type AfterModelCallAction,
  type AfterToolCallAction,
  type Awaitable,
  type BeforeInvocationAction,
  type BeforeModelCallAction,
  type BeforeToolCallAction,
  type HandlerMode,
  type InterventionHandlerLike,
  type OnError,
} from './handlers/intervention-handler.ts';
export { defineHandler } from './handlers/define-handler.ts';
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
} from './handlers/intervention-events.ts';
export type { DecisionRecord } from './handlers/decision-record.ts';
export type { GuideFeedback } from './handlers/evaluate-interventions.ts';
export { ACTION_EFFECTS, LIFECYCLES, type Lifecycle } from './handlers/lifecycle.ts';

// hooks
export type {
  ChatResponse,
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
  ToolHookContext,
  TransformContextContext,
  GateToolCallsContext,
  DrainContext,
  DrainResult,
  RunStatus,
  OnStatusContext,
} from './hooks/hook-types.ts';

// errors
export { InterventionsError, type InterventionsErrorCode } from './errors/interventions-error.ts';
export { InterventionHandlerError } from './errors/intervention-handler-error.ts';
export { HandlerTimeoutError } from './errors/handler-timeout-error.ts';
export { InvalidActionError } from './errors/invalid-action-error.ts';
export { InvalidHandlerError } from './errors/invalid-handler-error.ts';
export { InvalidHookError } from './errors/invalid-hook-error.ts';
export { InvalidHookResultError } from './errors/invalid-hook-result-error.ts';
export { InvocationDeniedError } from './errors/invocation-denied-error.ts';
export { ToolCallBlockedError } from './errors/tool-call-blocked-error.ts';
export { ApprovalOutcomeUnavailableError } from './errors/approval-outcome-unavailable-error.ts';
export { ApprovalSecretRequiredError } from './errors/approval-secret-required-error.ts';
export { InterventionsWarning, type InterventionsWarningCode } from './errors/interventions-warning.ts';

// tools without the runtime
export { guardTool } from './tools/guard-tool.ts';
export { guardTools, type GuardOptions } from './tools/guard-tools.ts';

// tool scopes: the one syntax of every `tools` option
export {
  toolScope,
  type ToolScope,
  type ToolSelector,
  type ToolAnnotationSelector,
  type ToolScopeMatcher,
} from './tools/tool-scope.ts';
export { toolAnnotations, type ToolAnnotationHints } from './tools/tool-annotations.ts';

// redaction
export {
  createRedactor,
  type RedactionRule,
  type Redactor,
} from './redaction/create-redactor.ts';
export type { RedactionStream } from './redaction/redaction-stream.ts';
export type { ToolErrorDetails, ToolErrorRedacting } from './redaction/redact-tool-error.ts';

// built-in handlers
export {
  toolPolicy,
  toolMatcher,
  type ToolPattern,
  type ToolPatterns,
} from './builtins/tool-policy.ts';
export type {
  ToolPolicyCondition,
  ToolPolicyDefault,
  ToolPolicyMessage,
  ToolPolicyOptions,
  ToolPolicyRule,
} from './builtins/tool-policy-options.ts';
export { loopGuard, type LoopGuardOptions, type LoopDetection } from './builtins/loop-guard.ts';
export {
  truncateToolResult,
  type TruncateToolResultOptions,
  type TruncatedToolResult,
} from './builtins/truncate-tool-result.ts';
export {
  forTool,
  type TypedToolHandler,
  type TypedToolCall,
  type TypedBeforeToolCallEvent,
  type TypedAfterToolCallEvent,
} from './builtins/for-tool.ts';

export { redactPii, type RedactPiiOptions } from './redaction/redact-pii.ts';
export type { PiiKind } from './redaction/pii-rules.ts';
export { createRedactionHandler, type RedactedToolValue, type RedactionHandler } from './redaction/create-redaction-handler.ts';
export {
  redactSecrets,
  SECRET_PATTERNS,
  SENSITIVE_KEYS,
  type RedactSecretsOptions,
} from './redaction/redact-secrets.ts';
export { humanApproval } from './builtins/human-approval.ts';
export type { HumanApprovalOptions } from './builtins/human-approval-options.ts';
export { flowPolicy } from './builtins/flow-policy.ts';
export type { FlowDecision, FlowPolicyOptions, FlowSources } from './builtins/flow-policy-options.ts';
export { llmSteering, type LlmSteeringOptions, type SteeringPoint } from './builtins/llm-steering.ts';
export { rateLimit, type RateLimitKeyPart, type RateLimitOptions } from './builtins/rate-limit.ts';
export { callBudget, type CallBudgetOptions } from './builtins/call-budget.ts';
export { cache, type CacheHooks, type CacheOptions, type CacheStats } from './builtins/cache.ts';
export { mergeHooks } from './hooks/merge-hooks.ts';
export { thrownByHook } from './hooks/thrown-by-hook.ts';

// stores
export type { Store } from './store/store.ts';
export { createMemoryStore } from './store/create-memory-store.ts';
export {
  createRedisStore,
  type RedisStoreClient,
  type RedisStoreOptions,
} from './store/create-redis-store.ts';
export type { RedisScriptClient } from './store/eval-script.ts';

// loop control (seeds 001–003)
export { createMessageQueue, type MemoryMessageQueue, type MessageQueue } from './queue/create-message-queue.ts';
export {
  createRedisMessageQueue,
  type RedisMessageQueue,
  type RedisMessageQueueOptions,
} from './queue/create-redis-message-queue.ts';
export type { LoopOptions } from './run/loop-control.ts';
export {
  defineToolGate,
  type ToolGateEvent,
  type ToolGateResult,
} from './handlers/define-tool-gate.ts';
