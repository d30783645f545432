import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type { Instructions, LanguageModelCallOptions, ModelMessage, StepResult, Tool, ToolChoice, ToolSet } from 'ai';
import type { ApprovalRemember } from '../client/approval-answer.ts';

/**
 * A tool call as handlers and hooks see it: AI SDK vocabulary, with the
 * parsed and validated `input`.
 *
 * @example
 * ```ts
 * const call: ToolCallInfo = { toolCallId: 'call-1', toolName: 'weather', input: { city: 'Paris' } };
 * ```
 */
export interface ToolCallInfo {
  readonly toolCallId: string;
  readonly toolName: string;
  input: unknown;
}

/**
 * A person's answer to an approval request, as handlers read it: a plain
 * `tool-approval-response`, or a typed one (`approvalAnswer`), decoded.
 *
 * @example
 * ```ts
 * const remembered = (answer: ApprovalAnswerInfo) => answer.remember !== 'once';
 * ```
 */
export interface ApprovalAnswerInfo {
  readonly approvalId: string;
  /** Their reason, in their words (never the encoding of a typed answer). */
  readonly reason: string | undefined;
  /** What they asked to remember; `'once'` for a plain response. */
  readonly remember: ApprovalRemember;
  /** Whether the answer was typed (`approvalAnswer`) rather than a plain response. */
  readonly typed: boolean;
  /**
   * When they changed the arguments before approving: theirs (`input`) and
   * the model's (`original`). In `beforeToolCall`, `toolCall.input` already
   * holds theirs.
   */
  readonly edited: { readonly input: unknown; readonly original: unknown } | undefined;
}

/**
 * An answer the run's input carries: which call, and whether the person
 * approved it.
 *
 * @example
 * ```ts
 * const refusals = (event: BeforeInvocationEvent) => event.answers.filter((answer) => !answer.approved);
 * ```
 */
export interface AnsweredApproval extends ApprovalAnswerInfo {
  readonly approved: boolean;
  readonly toolCall: ToolCallInfo;
  /**
   * The runtime context of the request that asked (pinned in the signed
   * request), when the runtime can read it: the person the call is for,
   * whoever answered. `undefined`: not known.
   */
  readonly asker?: Context | undefined;
}

/**
 * Fields every handler event carries: the `runtimeContext` the call was
 * given, and its abort signal.
 *
 * @example
 * ```ts
 * const isAdmin = ({ runtimeContext }: RunEventContext) => runtimeContext.role === 'admin';
 * interventions.use(defineHandler({
 *   name: 'admin-deletes',
 *   beforeToolCall: (event) =>
 *     event.toolCall.toolName !== 'delete_file' || isAdmin(event) ? InterventionActions.proceed() : InterventionActions.deny('Only admins may delete files'),
 * }));
 * await interventions.generateText({ model, tools, prompt, runtimeContext: { role: 'admin' } });
 * ```
 */
export interface RunEventContext {
  /**
   * Identifies the run (one `generateText` / `streamText` / agent call):
   * key per-run state on it. `undefined` outside a run (`guardTools`,
   * `interventions.middleware`).
   */
  readonly runId: string | undefined;
  /** The run's `runtimeContext` (trusted, server-side; never from the model). */
  readonly runtimeContext: Context;
  /** The run's abort signal, if the caller passed one. */
  readonly abortSignal: AbortSignal | undefined;
}

/**
 * Before the run starts (before any model call). Transform `messages`,
 * `instructions` or `tools` (remove a tool, or edit its description).
 *
 * @example
 * ```ts
 * class Timestamp extends InterventionHandler {
 *   readonly name = 'timestamp';
 *   override beforeInvocation(event: BeforeInvocationEvent) {
 *     return InterventionActions.transform<BeforeInvocationEvent>((draft) => {
 *       draft.instructions = `${draft.instructions ?? ''}\nCurrent time: ${new Date().toISOString()}`;
 *     });
 *   }
 * }
 * ```
 */
export interface BeforeInvocationEvent extends RunEventContext {
  readonly lifecycle: 'beforeInvocation';
  /** The input messages of the run. */
  messages: ModelMessage[];
  /** The run's instructions (system prompt). */
  instructions: Instructions | undefined;
  /** The tools of the run, by name. */
  tools: ToolSet;
  /**
   * The approval requests the input answers (its last message), approved or
   * refused, in order: a refused call is not evaluated again, so this is
   * where a handler reads a refusal.
   */
  readonly answers: readonly AnsweredApproval[];
}

/**
 * Model settings a `beforeModelCall` transform may change for one step: the
 * AI SDK call settings (`temperature`, `maxOutputTokens`, …) and `toolChoice`.
 *
 * @example
 * ```ts
 * const finalAnswer: ModelCallSettings = { toolChoice: 'none', temperature: 0 };
 * interventions.use(defineHandler({
 *   name: 'final-answer',
 *   beforeModelCall: (event) =>
 *     event.stepNumber >= 9
 *       ? InterventionActions.transform<BeforeModelCallEvent>((draft) => { draft.settings = { ...draft.settings, ...finalAnswer }; })
 *       : InterventionActions.proceed(),
 * }));
 * ```
 */
export type ModelCallSettings = LanguageModelCallOptions & {
  toolChoice?: ToolChoice<ToolSet>;
};

/**
 * Before each model call (each step). Transform `messages`, `instructions`,
 * `activeTools` or `settings`; guide injects a user message; deny ends the
 * run with the reason.
 *
 * @example
 * ```ts
 * class WrapUp extends InterventionHandler {
 *   readonly name = 'wrap-up';
 *   override beforeModelCall(event: BeforeModelCallEvent) {
 *     return event.stepNumber > 8
 *       ? InterventionActions.guide('Wrap up: answer with what you have.')
 *       : InterventionActions.proceed();
 *   }
 * }
 * ```
 */
export interface BeforeModelCallEvent extends RunEventContext {
  readonly lifecycle: 'beforeModelCall';
  readonly stepNumber: number;
  /** The steps completed so far. */
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  /** The messages about to be sent. */
  messages: ModelMessage[];
  instructions: Instructions | undefined;
  /** The names of the tools the model may call in this step. */
  activeTools: string[];
  /** Settings for this step (only what you set is changed). */
  settings: ModelCallSettings;
}

/**
 * After each model response, before its tool calls are decided. Guide
 * discards the response and retries with the feedback (bounded by
 * `maxGuideRetries`); transform edits `response.content`.
 *
 * @example
 * ```ts
 * class Tone extends InterventionHandler {
 *   readonly name = 'tone';
 *   override afterModelCall(event: AfterModelCallEvent) {
 *     const text = event.response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
 *     return /\bstupid\b/i.test(text)
 *       ? InterventionActions.guide('Use a more professional tone.')
 *       : InterventionActions.proceed();
 *   }
 * }
 * ```
 */
export interface AfterModelCallEvent extends RunEventContext {
  readonly lifecycle: 'afterModelCall';
  /** The step number, or `undefined` when used through `interventions.middleware`. */
  readonly stepNumber: number | undefined;
  /** 0 for the first response of the step, then 1, 2, … for guided retries. */
  readonly attempt: number;
  /** The model's response, at the provider level. */
  response: LanguageModelV4GenerateResult;
}

/**
 * Before each tool call runs. Deny or guide: the tool does not run and the
 * model gets a result it can read. Confirm: a human approves first.
 * Transform: change `toolCall.input`.
 *
 * @example
 * ```ts
 * class EnvironmentGuard extends InterventionHandler {
 *   readonly name = 'environment-guard';
 *   override beforeToolCall(event: BeforeToolCallEvent) {
 *     const input = event.toolCall.input as Record<string, string>;
 *     return input.database?.includes('prod')
 *       ? InterventionActions.deny('Production database access is not allowed')
 *       : InterventionActions.proceed();
 *   }
 * }
 * ```
 */
export interface BeforeToolCallEvent extends RunEventContext {
  readonly lifecycle: 'beforeToolCall';
  /** The step number, or `undefined` outside a run (`guardTool`, `wrapTools`). */
  readonly stepNumber: number | undefined;
  toolCall: ToolCallInfo;
  /**
   * The tool definition (`undefined` for a tool the run does not have). A
   * tool whose annotations the app trusts (`trustToolAnnotations`) is given
   * with its strictest listing of the conversation: if an earlier request
   * listed it with stricter hints (the history records them), a copy carries
   * those.
   */
  readonly tool: Tool | undefined;
  /**
   * Every tool of the run, by name (to read what other tools declare, e.g.
   * the MCP annotations of the tools whose results are in `messages`), as
   * `tool` is given. `undefined` when the runtime does not know them
   * (`guardTool`).
   */
  readonly tools?: ToolSet | undefined;
  /** The messages the model saw when it made the call. */
  readonly messages: ModelMessage[];
  /**
   * The run's instructions (its system prompt) as the app gave them
   * (`instructions` or `system`, or an agent's): the app's words.
   * `undefined` outside a run (`guardTool`, `wrapTools`).
   */
  readonly instructions?: Instructions | undefined;
  /**
   * `true` when the call was approved by a human and is evaluated again on
   * resume: a `confirm` then counts as answered, a `deny` still wins.
   */
  readonly approved: boolean;
  /**
   * The person's answer when `approved` is `true`: the approval's id, their
   * reason, what they asked to remember, and their edit of the arguments.
   */
  readonly approval: ApprovalAnswerInfo | undefined;
}

/**
 * After each tool call succeeds. Transform `result` (what the model sees).
 *
 * @example
 * ```ts
 * class SsnRedactor extends InterventionHandler {
 *   readonly name = 'ssn-redactor';
 *   override afterToolCall(event: AfterToolCallEvent) {
 *     return InterventionActions.transform<AfterToolCallEvent>((draft) => {
 *       draft.result = JSON.parse(JSON.stringify(draft.result).replaceAll(/\d{3}-\d{2}-\d{4}/g, '[REDACTED]'));
 *     });
 *   }
 * }
 * ```
 */
export interface AfterToolCallEvent extends RunEventContext {
  readonly lifecycle: 'afterToolCall';
  readonly stepNumber: number | undefined;
  readonly toolCall: ToolCallInfo;
  readonly tool: Tool | undefined;
  readonly messages: ModelMessage[];
  /** The tool's result. */
  result: unknown;
}

/**
 * Any event a handler receives; discriminated on `lifecycle`.
 *
 * @example
 * ```ts
 * InterventionActions.transform((event: InterventionEvent) => {
 *   if (event.lifecycle === 'beforeToolCall') event.toolCall.input = {};
 * });
 * ```
 */
export type InterventionEvent =
  | BeforeInvocationEvent
  | BeforeModelCallEvent
  | AfterModelCallEvent
  | BeforeToolCallEvent
  | AfterToolCallEvent;
