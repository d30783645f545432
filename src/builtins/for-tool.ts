import type { InferToolInput, InferToolOutput, ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import type { Confirm, Deny, Guide, Proceed, Transform } from '../actions/intervention-actions.ts';
import type { AfterToolCallEvent, BeforeToolCallEvent } from '../actions/intervention-events.ts';
import type { AfterToolCallAction, BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { InterventionHandlerLike, OnError, ToolCallActionType } from '../handlers/intervention-handler.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { getOwn } from '../util/get-own.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * A call to one of the tools `NAME` of `TOOLS`, with its input typed from
 * the tool's schema; a union over the names, discriminated on `toolName`.
 *
 * @example
 * ```ts
 * type Call = TypedToolCall<typeof tools, 'send_email'>;
 * // { readonly toolCallId: string; readonly toolName: 'send_email'; input: { to: string; subject?: string; body: string } }
 * ```
 */
export type TypedToolCall<TOOLS extends ToolSet, NAME extends keyof TOOLS & string> = {
  [K in NAME]: {
    readonly toolCallId: string;
    readonly toolName: K;
    input: InferToolInput<TOOLS[K]>;
  };
}[NAME];

/**
 * A `beforeToolCall` event narrowed to the tools `NAME` of `TOOLS`: the
 * same event, with `toolCall.input` typed. Transform it with
 * `InterventionActions.transform<TypedBeforeToolCallEvent<…>>` (or let the
 * handler's return type infer it).
 *
 * @example
 * ```ts
 * const check = (event: TypedBeforeToolCallEvent<typeof tools, 'send_email'>) =>
 *   event.toolCall.input.subject ? InterventionActions.proceed() : InterventionActions.guide('Add a subject line.');
 * ```
 */
export type TypedBeforeToolCallEvent<TOOLS extends ToolSet, NAME extends keyof TOOLS & string> = Omit<BeforeToolCallEvent, 'toolCall'> & {
  toolCall: TypedToolCall<TOOLS, NAME>;
};

/**
 * An `afterToolCall` event narrowed to the tools `NAME` of `TOOLS`: the
 * call's input and the `result` typed from the tool (one member per name,
 * so narrowing `toolCall.toolName` does not narrow `result`; use one name,
 * or check the result's shape). A handler registered earlier that
 * transforms the result (such as `truncateToolResult`) may change its shape:
 * register typed handlers first.
 *
 * @example
 * ```ts
 * const lookup_user = tool({
 *   inputSchema: z.object({ id: z.string() }),
 *   execute: async ({ id }) => ({ id, name: 'Ada', ssn: '123-45-6789' }),
 * });
 * const tools = { lookup_user };
 * const redact = (event: TypedAfterToolCallEvent<typeof tools, 'lookup_user'>) =>
 *   InterventionActions.transform<TypedAfterToolCallEvent<typeof tools, 'lookup_user'>>((draft) => { draft.result.ssn = '[REDACTED]'; });
 * interventions.use(forTool(tools, 'lookup_user', { name: 'redact-ssn', afterToolCall: redact }));
 * ```
 */
export type TypedAfterToolCallEvent<TOOLS extends ToolSet, NAME extends keyof TOOLS & string> = {
  [K in NAME]: Omit<AfterToolCallEvent, 'toolCall' | 'result'> & {
    readonly toolCall: TypedToolCall<TOOLS, K>;
    result: InferToolOutput<TOOLS[K]>;
  };
}[NAME];

/**
 * The handler {@link forTool} scopes: `beforeToolCall` / `afterToolCall`
 * with typed events, and the usual `name`, `onError`, `timeoutMs`, `mode`.
 *
 * @example
 * ```ts
 * const handler: TypedToolHandler<typeof tools, 'send_email'> = {
 *   name: 'email-subject',
 *   beforeToolCall: ({ toolCall }) => (toolCall.input.subject ? InterventionActions.proceed() : InterventionActions.guide('Add a subject line.')),
 * };
 * ```
 */
export interface TypedToolHandler<TOOLS extends ToolSet, NAME extends keyof TOOLS & string> {
  readonly name: string;
  readonly onError?: OnError;
  readonly timeoutMs?: number | undefined;
  readonly mode?: HandlerMode;
  /** The actions its `beforeToolCall` may return besides `proceed` (see `InterventionHandlerLike.toolCallActions`). */
  readonly toolCallActions?: readonly ToolCallActionType[];
  beforeToolCall?(
    event: TypedBeforeToolCallEvent<TOOLS, NAME>,
  ): Awaitable<Proceed | Deny | Guide | Confirm | Transform<TypedBeforeToolCallEvent<TOOLS, NAME>>>;
  afterToolCall?(event: TypedAfterToolCallEvent<TOOLS, NAME>): Awaitable<Proceed | Deny | Transform<TypedAfterToolCallEvent<TOOLS, NAME>>>;
}

/** The keys of {@link TypedToolHandler}: `forTool` checks the handler it is given against them. */
const TYPED_TOOL_HANDLER = knownOptions<TypedToolHandler<ToolSet, string>>({
  name: true,
  onError: true,
  timeoutMs: true,
  mode: true,
  toolCallActions: true,
  beforeToolCall: true,
  afterToolCall: true,
});

/**
 * Scopes a handler to some tools of a `ToolSet`, with their inputs (and
 * results) typed from the tools' schemas, instead of branching on
 * `toolCall.toolName` and casting `input` inside a handler. The returned
 * handler calls yours only for those tools; every other call proceeds.
 *
 * `tools` is the tool set you pass to `generateText` / `streamText`: it
 * types the handler, and its names are checked (a name not in it throws a
 * `TypeError`). Give one name or a list; with a list, `toolCall` is a union
 * discriminated on `toolName`. Only the lifecycle methods your handler has
 * are defined on the result.
 *
 * @example
 * ```ts
 * const send = async ({ to }: { to: string }) => ({ sent: true, to });
 * const tools = { send_email: tool({ inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }), execute: send }) };
 *
 * const emailRules = forTool(tools, 'send_email', {
 *   name: 'email-rules',
 *   beforeToolCall: ({ toolCall }) => {
 *     if (!toolCall.input.subject) return InterventionActions.guide('All emails must include a subject line.');
 *     if (!toolCall.input.to.endsWith('@example.com')) return InterventionActions.confirm(`Email ${toolCall.input.to}?`);
 *     return InterventionActions.proceed();
 *   },
 * });
 * const result = await createInterventions({ handlers: [emailRules] }).generateText({ model, tools, prompt });
 * ```
 */
export function forTool<TOOLS extends ToolSet, const NAME extends keyof TOOLS & string>(
  tools: TOOLS,
  names: NAME | readonly NAME[],
  handler: TypedToolHandler<TOOLS, NAME>,
): InterventionHandlerLike {
  TYPED_TOOL_HANDLER.check(handler, `forTool "${handler.name}"`);
  const list: readonly string[] = typeof names === 'string' ? [names] : names;
  if (list.length === 0) throw new TypeError(`forTool "${handler.name}": name at least one tool`);
  for (const toolName of list) {
    if (getOwn(tools, toolName) === undefined) {
      throw new TypeError(
        `forTool "${handler.name}": "${toolName}" is not a tool of the set given (it has ${
          Object.keys(tools)
            .map((key) => `"${key}"`)
            .join(', ') || 'none'
        })`,
      );
    }
  }
  const { beforeToolCall, afterToolCall } = handler;

  return {
    name: handler.name,
    ...(handler.onError === undefined ? {} : { onError: handler.onError }),
    ...(handler.timeoutMs === undefined ? {} : { timeoutMs: handler.timeoutMs }),
    ...(handler.mode === undefined ? {} : { mode: handler.mode }),
    ...(handler.toolCallActions === undefined ? {} : { toolCallActions: handler.toolCallActions }),
    // scoped by the runtime: calls to other tools do not evaluate it at all
    tools: list,
    ...(beforeToolCall === undefined
      ? {}
      : {
          beforeToolCall(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction> {
            // the SDK parsed and validated the input against this tool's schema
            return beforeToolCall.call(handler, event as unknown as TypedBeforeToolCallEvent<TOOLS, NAME>);
          },
        }),
    ...(afterToolCall === undefined
      ? {}
      : {
          afterToolCall(event: AfterToolCallEvent): Awaitable<AfterToolCallAction> {
            return afterToolCall.call(handler, event as unknown as TypedAfterToolCallEvent<TOOLS, NAME>);
          },
        }),
  };
}
