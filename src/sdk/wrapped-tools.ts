import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolSet } from 'ai';
import type { ApprovalLedger } from '../approvals/approval-ledger.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { CallOptions } from './call-options.ts';
import { guardToolsStandalone } from './guard-tools-standalone.ts';

/**
 * The tools a runtime wrapped for plain calls (`wrapTools`): it remembers
 * each wrapped tool's original, so a run of the runtime's own wrappers
 * given wrapped tools uses the originals (the run guards them itself), and
 * each tool it wrapped by name (the middleware checks a call's tools by name,
 * a guard registered later is checked against them).
 */
export class WrappedTools {
  private readonly originals = new WeakMap<Tool, Tool>();
  /** Whether any tool was wrapped: a runtime that never wrapped one has nothing to look up in a call's tools. */
  private wrappedAny = false;
  /** The originals by name (the latest of each name), as a tool set. */
  readonly byName: ToolSet = Object.create(null) as ToolSet;

  /** `tools`, each guarded without a run by the runtime of `snapshotOf`. */
  wrap<TOOLS extends ToolSet>(
    tools: TOOLS,
    snapshotOf: () => RuntimeSnapshot,
    approvalLedger: ApprovalLedger | undefined,
    runtimeContext?: Context,
  ): TOOLS {
    const wrapped = guardToolsStandalone(tools, snapshotOf, approvalLedger, runtimeContext);
    for (const name of Object.keys(wrapped)) {
      const tool = wrapped[name];
      const original = tools[name] as Tool;
      Object.defineProperty(this.byName, name, { value: original, enumerable: true, writable: true, configurable: true });
      if (tool !== undefined && tool !== original) {
        this.originals.set(tool, original);
        this.wrappedAny = true;
      }
    }
    return wrapped;
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
