import type { Context } from '@ai-sdk/provider-utils';
import type { Verdict } from '../handlers/evaluate-interventions.ts';
import type { RunStatus } from '../hooks/hook-types.ts';
import type { EvaluationOptions } from './evaluate-and-report.ts';
import type { Tool, ToolExecutionOptions } from 'ai';
import type {
  InterventionEvent,
  ToolCallInfo,
} from '../handlers/intervention-events.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/**
 * What a guarded tool's `execute` needs from its surroundings: a run (the
 * wrappers) or a standalone scope (`wrapTools` / `guardTool` on a plain
 * `generateText` call).
 */
export interface ToolScope {
  readonly snapshot: RuntimeSnapshot;
  readonly runtimeContext: Context;
  readonly runId: string | undefined;
  readonly stepNumber: number | undefined;
  /**
   * Set when no run decides tool calls before they execute (`wrapTools` on
   * a plain call): decides the call inside `execute`, returning the call to
   * run or throwing the model-facing `ToolCallBlockedError`.
   */
  readonly beforeExecute?: (details: {
    readonly tool: Tool;
    readonly call: ToolCallInfo;
    readonly options: ToolExecutionOptions<Context>;
  }) => Promise<ToolCallInfo>;
  /** Resolves once the run has started (chat start hooks, beforeInvocation). */
  ensureStarted(): Promise<void> | undefined;
  /** Ends the run with `error` (kept for the caller), where the SDK would swallow it. */
  fail(error: unknown): void;
  /** Runs hooks or handlers whose throw must end the run, not become a tool error. */
  critical<T>(work: () => Promise<T>): Promise<T>;
  /** The tool to run under `toolName`, when the run replaced it (`beforeInvocation`). */
  toolFor?(toolName: string): Tool | undefined;
  /** Tells the `onStatus` hooks what is happening. */
  status(status: RunStatus): Promise<void>;
  /** Evaluates handlers, records their decisions and reports them to `onDecision`. */
  evaluate<EVENT extends InterventionEvent>(
    options: EvaluationOptions<EVENT>,
  ): Verdict<EVENT> | Promise<Verdict<EVENT>>;
}
