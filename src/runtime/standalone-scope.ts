import type { Context } from '@ai-sdk/provider-utils';
import type { Verdict } from '../handlers/evaluate-interventions.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
import type { RunStatus } from '../hooks/hook-types.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import type { ModelScope } from './create-model-middleware.ts';
import { evaluateAndReport, type EvaluationOptions } from './evaluate-and-report.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';
import type { ToolScope } from './tool-scope.ts';

const NO_CONTEXT: Context = Object.freeze({});

/**
 * The scope of hooks and handlers used outside a run: `interventions.middleware`
 * on any `wrapLanguageModel`, and `wrapTools` / `guardTool` on a plain call.
 * There is no run to end, so a throw simply propagates where it happens.
 */
export class StandaloneScope implements ToolScope, ModelScope {
  readonly runtimeContext = NO_CONTEXT;
  readonly runId = undefined;
  readonly stepNumber = undefined;
  readonly decidesToolCalls = false;

  readonly snapshot: RuntimeSnapshot;
  readonly beforeExecute: ToolScope['beforeExecute'];

  constructor(snapshot: RuntimeSnapshot, beforeExecute?: ToolScope['beforeExecute']) {
    this.snapshot = snapshot;
    this.beforeExecute = beforeExecute;
  }

  ensureStarted(): undefined {
    return undefined;
  }

  fail(): void {
    // no run to end: the error propagates where it happens
  }

  critical<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async status(status: RunStatus): Promise<void> {
    const hooks = this.snapshot.hooks.onStatus;
    if (hooks.length > 0) await runObservers(hooks, { status, runtimeContext: this.runtimeContext, runId: undefined });
  }

  evaluate<EVENT extends InterventionEvent>(
    options: EvaluationOptions<EVENT>,
  ): Verdict<EVENT> | Promise<Verdict<EVENT>> {
    return evaluateAndReport(this.snapshot, options);
  }
}
