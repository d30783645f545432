import type { Context } from '@ai-sdk/provider-utils';
import type { StopCondition, ToolSet } from 'ai';
import type { Run } from '../run/run.ts';
import { hasToolHooks } from '../run/runtime-snapshot.ts';

/**
 * Whether a hook or handler runs where the SDK swallows what it throws
 * (inside a tool, a repair, a step callback): such a failure is recorded and
 * the run ends with it at the next stop check.
 */
export function swallowsFailures(run: Run): boolean {
  return hasToolHooks(run.snapshot) || run.snapshot.hooks.onMessage.length > 0;
}

/**
 * The stop conditions, except that a run holding a failure the SDK swallowed
 * goes on to its next `prepareStep`, which ends it with that failure (the
 * SDK reports an error thrown there like a provider error; one thrown from
 * `stopWhen` would end a stream without any callback).
 */
export function continueOnFailure(run: Run, conditions: readonly StopCondition<ToolSet, Context>[]): StopCondition<ToolSet, Context> {
  if (conditions.length === 1) {
    const [condition] = conditions as [StopCondition<ToolSet, Context>];
    return (options) => run.failed === undefined && condition(options);
  }
  return async (options) => {
    if (run.failed !== undefined) return false;
    // all of them, as the SDK asks them (a condition may count its calls)
    const results = await Promise.all(conditions.map((condition) => condition(options)));
    return results.some(Boolean);
  };
}

export function asArray<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? value : [value as T];
}
