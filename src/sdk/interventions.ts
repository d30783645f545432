import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type {
  createAgentUIStream,
  createAgentUIStreamResponse,
  GenerateTextResult,
  generateText,
  OutputInterface,
  StreamTextResult,
  streamText,
  ToolLoopAgentSettings,
  ToolSet,
} from 'ai';
import type { ApprovalLedger } from '../approvals/approval-ledger.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { Wording } from '../handlers/wording.ts';
import type { HookName, HooksConfig, InterventionHooks } from '../hooks/hook-types.ts';
import type { Redactor } from '../redaction/create-redactor.ts';
import type { InterventionsReport } from '../run/interventions-report.ts';
import type { LoopOptions } from '../run/loop-control.ts';
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
 *   approvalSecret: process.env.APPROVAL_SECRET,
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
  redactors: true,
  trail: true,
  actionDigests: true,
  policyVersion: true,
  strictScopes: true,
});

/**
 * What the wrappers add to a result: `result.interventions`. The property is
 * not enumerable, so spreading or serialising the result leaves it out.
 *
 * @example
 * ```ts
 * function deniedTools({ interventions }: InterventionsResult): string[] {
 *   return interventions.decisions.flatMap((record) =>
 *     record.action === 'deny' && record.enforced && record.toolName !== undefined ? [record.toolName] : [],
 *   );
 * }
 * console.log(deniedTools(await interventions.generateText({ model, tools, prompt })));
 * ```
 */
export interface InterventionsResult {
  readonly interventions: InterventionsReport;
}

/**
 * `generateText`'s exact signature (options inferred the same way, tools
 * typed the same way), plus the loop options (`steering`, `followUp`,
 * `maxSteps`), with `interventions` on the result. The type of
 * `interventions.generateText`, for code that takes it as a parameter.
 *
 * @example
 * ```ts
 * async function summarize(generate: InterventionsGenerateText, text: string): Promise<string> {
 *   const result = await generate({ model, prompt: `Summarize:\n${text}` });
 *   return result.text;
 * }
 * const summary = await summarize(interventions.generateText, 'A long report…');
 * ```
 */
export type InterventionsGenerateText = <
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
>(
  options: Parameters<typeof generateText<TOOLS, RUNTIME_CONTEXT, OUTPUT>>[0] & LoopOptions,
) => Promise<GenerateTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT> & InterventionsResult>;

/**
 * `streamText`'s exact signature, plus the loop options, with
 * `interventions` on the result. The type of `interventions.streamText`.
 *
 * @example
 * ```ts
 * function chat(stream: InterventionsStreamText, history: ModelMessage[]): Response {
 *   const result = stream({ model, tools, messages: history, maxSteps: 10 });
 *   return result.toUIMessageStreamResponse();
 * }
 * const response = chat(interventions.streamText, messages);
 * ```
 */
export type InterventionsStreamText = <
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
>(
  options: Parameters<typeof streamText<TOOLS, RUNTIME_CONTEXT, OUTPUT>>[0] & LoopOptions,
) => StreamTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT> & InterventionsResult;

/**
 * The runtime: hooks and intervention handlers, and the wrappers that put
 * them around AI SDK calls, tools, models and agents.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });
 * const result = await interventions.generateText({ model, tools, prompt: 'Clean up the temp directory' });
 * console.log(result.text, result.interventions.decisions);
 * ```
 */
export interface Interventions {
  /**
   * `generateText`, with every hook and handler applied. Same options, same
   * result, plus `result.interventions`.
   *
   * @example
   * ```ts
   * const { text, interventions: report } = await interventions.generateText({
   *   model, tools, stopWhen: isStepCount(5), prompt: 'What is the weather in Paris?',
   * });
   * ```
   */
  readonly generateText: InterventionsGenerateText;
  /**
   * `streamText`, with every hook and handler applied. Returns synchronously;
   * streaming stays streaming (see the README for when text is held back).
   *
   * @example
   * ```ts
   * const result = interventions.streamText({ model, tools, messages });
   * for await (const text of result.textStream) process.stdout.write(text);
   * ```
   */
  readonly streamText: InterventionsStreamText;
  /**
   * Registers a handler last; returns an idempotent disposer.
   *
   * @example
   * ```ts
   * const dispose = interventions.use(new ToolGuard(['delete_file']));
   * dispose();
   * ```
   */
  use(handler: InterventionHandlerLike): () => void;
  /**
   * Registers a hook last for `event`; returns an idempotent disposer.
   *
   * @example
   * ```ts
   * const dispose = interventions.addHook('onMessage', ({ message }) => {
   *   if (message.role === 'assistant') console.log('assistant said:', message.content);
   * });
   * dispose();
   * ```
   */
  addHook<K extends HookName>(event: K, hook: InterventionHooks[K]): () => void;
  /**
   * Guards tools for a plain `generateText` / `streamText` / `ToolLoopAgent`:
   * the same `ToolSet` type back, every tool covered. `runtimeContext`: the
   * trusted context of the request the tools serve (wrap them per request),
   * as the wrappers take it: what handlers and hooks see, who asks a confirm
   * and who answers one.
   *
   * @example
   * ```ts
   * const result = await generateText({ model, tools: interventions.wrapTools(tools), prompt });
   * // per request, for approvals that say who may answer them
   * const mine = interventions.wrapTools(tools, { runtimeContext: { userId: session.userId } });
   * ```
   */
  wrapTools<TOOLS extends ToolSet>(tools: TOOLS, options?: WrapToolsOptions): TOOLS;
  /**
   * A `LanguageModelV4Middleware` running the model-level hooks
   * (`preRequest`, `onResponse`) and `afterModelCall` handlers on any model.
   *
   * @example
   * ```ts
   * const model = wrapLanguageModel({ model: openai('gpt-5-mini'), middleware: interventions.middleware });
   * ```
   */
  readonly middleware: LanguageModelV4Middleware;
  /**
   * Settings for `new ToolLoopAgent(...)` with the runtime applied to each
   * call of the agent (a run per call, started in `prepareCall`).
   *
   * @example
   * ```ts
   * const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, instructions }));
   * const result = await agent.generate({ prompt: 'Clean up the temp directory' });
   * ```
   */
  agentSettings<
    CALL_OPTIONS = never,
    // biome-ignore lint/complexity/noBannedTypes: ToolLoopAgentSettings' own default for TOOLS
    TOOLS extends ToolSet = {},
    RUNTIME_CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = never,
  >(
    settings: ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>,
  ): ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>;
  /**
   * The AI SDK's `createAgentUIStreamResponse` (same options, same
   * response) with the decisions of an agent built with
   * {@link Interventions.agentSettings} as `data-intervention` parts, as
   * `interventions.streamText`'s `toUIMessageStreamResponse()` has them.
   * With nothing acting, or an agent whose settings are not this runtime's,
   * the response is the SDK's own, chunk for chunk.
   *
   * @example
   * ```ts
   * // app/api/agent/route.ts
   * const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, instructions }));
   *
   * export async function POST(request: Request) {
   *   const { messages } = (await request.json()) as { messages: InterventionUIMessage[] };
   *   return interventions.createAgentUIStreamResponse({ agent, uiMessages: messages });
   * }
   * ```
   */
  readonly createAgentUIStreamResponse: typeof createAgentUIStreamResponse;
  /**
   * The AI SDK's `createAgentUIStream` with the agent's decisions as
   * `data-intervention` parts (see
   * {@link Interventions.createAgentUIStreamResponse}).
   *
   * @example
   * ```ts
   * const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, instructions }));
   * const stream = await interventions.createAgentUIStream({ agent, uiMessages: [] });
   * ```
   */
  readonly createAgentUIStream: typeof createAgentUIStream;
  /** The registered handlers, in evaluation order. */
  readonly handlers: readonly InterventionHandlerLike[];
}

/**
 * Options of `interventions.wrapTools`.
 *
 * @example
 * ```ts
 * const options: WrapToolsOptions = { runtimeContext: { userId: 'alice', role: 'employee' } };
 * const guarded = interventions.wrapTools({ delete_file }, options);
 * ```
 */
export interface WrapToolsOptions {
  /** The trusted runtime context of the request the tools serve (your server sets it, never the conversation). */
  readonly runtimeContext?: Context;
}

/** The keys of {@link WrapToolsOptions}: `wrapTools` checks its options against them. */
export const WRAP_TOOLS_OPTIONS = knownOptions<WrapToolsOptions>({ runtimeContext: true });
