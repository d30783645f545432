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
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { HookName, InterventionHooks } from '../hooks/hook-types.ts';
import type { InterventionsInbox } from '../inbox/interventions-inbox.ts';
import type { LoopOptions } from '../loop/loop-control.ts';
import type { InterventionsReport } from '../run/interventions-report.ts';
import { knownOptions } from '../util/known-options.ts';

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
   * The approval inbox: the requests a person may answer, answering them by
   * id (admitted exactly as an answer in the chat), and a conversation's
   * history with those answers, so the requester's next request continues
   * without carrying them. See {@link InterventionsInbox}.
   *
   * @example
   * ```ts
   * const { requests } = await interventions.inbox.list({ runtimeContext: { userId: 'mia', role: 'manager' } });
   * ```
   */
  readonly inbox: InterventionsInbox;
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
