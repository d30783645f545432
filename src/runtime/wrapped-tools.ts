import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolSet } from 'ai';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { CallOptions } from '../sdk/call-options.ts';
import { guardToolsStandalone } from '../sdk/guard-tools-standalone.ts';

type ToolDefinition = NonNullable<LanguageModelV4CallOptions['tools']>[number];

/** How many calls seen in the middleware's responses are kept for the wrapped tools to take (a bound, not a budget). */
const SEEN_CALLS = 10_000;

/**
 * The tools a runtime wrapped for plain calls (`wrapTools`), known by
 * identity, never by name:
 *
 * - each wrapped tool carries a `providerOptions` object of its own, which
 *   the SDK hands the model as the tool's definition: the runtime's
 *   middleware knows a request's wrapped tools by that object (and gives the
 *   provider the tool's own `providerOptions` back);
 * - the middleware notes each tool call of the responses it passes on, and a
 *   wrapped tool takes its call from there: a call no response of the
 *   runtime's middleware carried came from a model that is not wrapped;
 * - a run of the runtime's own wrappers given wrapped tools uses their
 *   originals (the run guards them itself).
 */
export class WrappedTools {
  private readonly originals = new WeakMap<Tool, Tool>();
  /** The `providerOptions` object of each wrapped tool, with the tool's own (`undefined`: none). */
  private readonly marks = new WeakMap<object, Tool['providerOptions']>();
  /** Whether any tool was wrapped: a runtime that never wrapped one has nothing to look up in a call's tools. */
  private wrappedAny = false;
  /** The originals by name (the latest of each name), as a tool set: what a scope is checked against. */
  readonly byName: ToolSet = Object.create(null) as ToolSet;
  /** The tool calls of the middleware's responses not taken by a wrapped tool yet, by id (providers reuse ids: a count). */
  private readonly seen = new Map<string, number>();

  /** `tools`, each guarded without a run by the runtime of `snapshotOf`. */
  wrap<TOOLS extends ToolSet>(
    tools: TOOLS,
    snapshotOf: () => RuntimeSnapshot,
    approvalLedger: ApprovalLedger | undefined,
    options: { readonly runtimeContext?: Context | undefined; readonly fromModel?: ((toolCallId: string) => void) | undefined } = {},
  ): TOOLS {
    const wrapped = guardToolsStandalone(tools, snapshotOf, approvalLedger, options.runtimeContext, options.fromModel);
    for (const name of Object.keys(wrapped)) {
      const tool = wrapped[name];
      const original = tools[name] as Tool;
      Object.defineProperty(this.byName, name, { value: original, enumerable: true, writable: true, configurable: true });
      if (tool === undefined || tool === original) continue;
      this.originals.set(tool, original);
      this.wrappedAny = true;
      const mark = { ...original.providerOptions };
      this.marks.set(mark, original.providerOptions);
      Object.defineProperty(tool, 'providerOptions', { value: mark, enumerable: true, writable: true, configurable: true });
    }
    return wrapped;
  }

  /** Whether a tool definition of a model request is a tool this runtime wrapped. */
  isWrapped(definition: ToolDefinition): boolean {
    return definition.type === 'function' && definition.providerOptions !== undefined && this.marks.has(definition.providerOptions);
  }

  /** A model request with each wrapped tool's definition as its own tool gives it (its own `providerOptions`, or none). */
  restore(params: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
    if (!this.wrappedAny || params.tools === undefined || !params.tools.some((definition) => this.isWrapped(definition))) return params;
    const tools = params.tools.map((definition) => {
      if (definition.type !== 'function' || !this.isWrapped(definition)) return definition;
      const { providerOptions, ...rest } = definition;
      const own = this.marks.get(providerOptions as object);
      return own === undefined ? rest : { ...rest, providerOptions: own };
    });
    return { ...params, tools };
  }

  /** A tool call of a response the runtime's middleware passed on. */
  sawCall(toolCallId: string): void {
    this.seen.set(toolCallId, (this.seen.get(toolCallId) ?? 0) + 1);
    // calls of tools nobody wrapped are never taken: the oldest go first
    if (this.seen.size > SEEN_CALLS) this.seen.delete(this.seen.keys().next().value as string);
  }

  /** Takes a call the middleware saw: `false` when no response of the runtime's middleware carried it. */
  takeCall(toolCallId: string): boolean {
    const count = this.seen.get(toolCallId);
    if (count === undefined) return false;
    if (count > 1) this.seen.set(toolCallId, count - 1);
    else this.seen.delete(toolCallId);
    return true;
  }

  /** `callOptions` with the tools this runtime wrapped replaced by their originals. */
  unwrapped(callOptions: CallOptions): CallOptions {
    const tools = callOptions.tools;
    if (tools === undefined || !this.wrappedAny) return callOptions;
    let copy: ToolSet | undefined;
    for (const name of Object.keys(tools)) {
      const original = this.originals.get(tools[name] as Tool);
      if (original === undefined) continue;
      copy ??= { ...tools };
      Object.defineProperty(copy, name, { value: original, enumerable: true, writable: true, configurable: true });
    }
    return copy === undefined ? callOptions : { ...callOptions, tools: copy };
  }
}
