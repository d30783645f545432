import { isThenable } from '../util/is-thenable.ts';
import type { HookEntry } from './hook-registry.ts';
import type { HookName, InterventionHooks } from './hook-types.ts';
import { markThrownByHook } from './thrown-by-hook.ts';

type ContextOf<K extends HookName> = Parameters<InterventionHooks[K]>[0];

/** What a waterfall does after one hook: go on with a value, or stop with a result. */
export type WaterfallStep<VALUE, RESULT> = { readonly next: VALUE } | { readonly stop: RESULT };

/**
 * Runs hooks in registration order over a value, each seeing what the one
 * before left (`contextOf(value)`); `step` reads what a hook returned and
 * says whether to go on. It stays synchronous until a hook returns a
 * promise, so hooks that answer at once add no microtask (the SDK's own
 * timing is kept). A hook's throw is marked with its label (`thrownByHook`).
 */
export function runWaterfall<K extends HookName, VALUE, RESULT>(
  entries: ReadonlyArray<HookEntry<K>>,
  initial: VALUE,
  contextOf: (value: VALUE) => ContextOf<K>,
  step: (returned: unknown, value: VALUE, label: string) => WaterfallStep<VALUE, RESULT>,
  done: (value: VALUE) => RESULT,
): RESULT | Promise<RESULT> {
  let value = initial;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as HookEntry<K>;
    const returned = invoke(entry, contextOf(value));
    if (isThenable(returned)) return resume(entries, index, returned, value, contextOf, step, done);
    const next = step(returned, value, entry.label);
    if ('stop' in next) return next.stop;
    value = next.next;
  }
  return done(value);
}

async function resume<K extends HookName, VALUE, RESULT>(
  entries: ReadonlyArray<HookEntry<K>>,
  index: number,
  pending: PromiseLike<unknown>,
  value: VALUE,
  contextOf: (value: VALUE) => ContextOf<K>,
  step: (returned: unknown, value: VALUE, label: string) => WaterfallStep<VALUE, RESULT>,
  done: (value: VALUE) => RESULT,
): Promise<RESULT> {
  let returned: unknown;
  const { label } = entries[index] as HookEntry<K>;
  try {
    returned = await pending;
  } catch (error) {
    throw markThrownByHook(error, label);
  }
  const next = step(returned, value, label);
  if ('stop' in next) return next.stop;
  return runWaterfall(entries.slice(index + 1), next.next, contextOf, step, done);
}

function invoke<K extends HookName>(entry: HookEntry<K>, context: ContextOf<K>): unknown {
  try {
    return (entry.hook as (context: ContextOf<K>) => unknown)(context);
  } catch (error) {
    throw markThrownByHook(error, entry.label);
  }
}
