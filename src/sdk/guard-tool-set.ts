import type { Tool, ToolSet } from 'ai';
import type { Run } from '../run/run.ts';
import { type ApprovalOf, type DecideInExecute, guardExecute } from '../tool-call/guard-execute.ts';
import { withProperties } from '../util/with-properties.ts';

/** How a tool set is guarded: its run, and optionally a decision inside `execute` and extra tool fields. */
export interface ToolGuard {
  readonly runOf: () => Run;
  readonly decide?: DecideInExecute | undefined;
  /** The approval an execution uses (default: the run's resumed approval). */
  readonly approvalOf?: ApprovalOf | undefined;
  readonly extend?: ((toolName: string, tool: Tool) => Partial<Tool>) | undefined;
}

/**
 * A copy of `tools` whose every executable tool (static, dynamic, MCP) runs
 * through the tool-level pipeline of `guard.runOf()`. Only own properties are
 * read; tools without `execute` (client-side, provider-executed) are kept as
 * they are. `guard.extend` may add fields to each guarded tool.
 */
export function guardToolSet<TOOLS extends ToolSet>(tools: TOOLS, guard: ToolGuard): TOOLS {
  const guarded: Record<string, Tool> = {};
  for (const toolName of Object.keys(tools)) {
    const copy = guardTool(toolName, tools[toolName] as Tool, guard);
    // a name the set inherits is defined, not assigned: `__proto__` stays a tool, never the copy's prototype, and
    // `toString` or `constructor` stays a tool where Object.prototype is frozen (an assignment would throw there)
    if (toolName in guarded)
      Object.defineProperty(guarded, toolName, { value: copy, enumerable: true, writable: true, configurable: true });
    else guarded[toolName] = copy;
  }
  return guarded as TOOLS;
}

/** One tool of {@link guardToolSet}. */
export function guardTool(toolName: string, tool: Tool, { runOf, decide, approvalOf, extend }: ToolGuard): Tool {
  const extra: Record<string, unknown> = { ...extend?.(toolName, tool) };
  if (tool.execute !== undefined) extra.execute = guardExecute({ runOf, toolName, tool, execute: tool.execute, decide, approvalOf });
  return withProperties(tool, extra);
}
