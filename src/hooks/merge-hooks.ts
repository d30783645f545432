import type { HookName, HooksConfig, InterventionHooks } from './hook-types.ts';

type MutableHooks = { [K in HookName]?: Array<InterventionHooks[K]> };

/**
 * Combines hook sets into one `HooksConfig`: for each event, the hooks of
 * every set in argument order (a set's own list keeps its order). Sets that
 * are `undefined` are skipped, so a set can be added conditionally. Unknown
 * event names are kept, so `createInterventions` still reports them.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   hooks: mergeHooks(
 *     telemetry(),
 *     process.env.CACHE_MODEL_CALLS === '1' ? cache({ ttlMs: 60_000 }) : undefined,
 *     { onDecision: ({ record }) => console.log(record.handler, record.action) },
 *   ),
 * });
 * ```
 */
export function mergeHooks(...configs: ReadonlyArray<HooksConfig | undefined>): HooksConfig {
  const merged: MutableHooks = {};
  for (const config of configs) {
    if (config === undefined) continue;
    for (const event of Object.keys(config) as HookName[]) append(merged, event, config[event]);
  }
  return merged;
}

function append<K extends HookName>(
  merged: MutableHooks,
  event: K,
  value: InterventionHooks[K] | ReadonlyArray<InterventionHooks[K]> | undefined,
): void {
  if (value === undefined) return;
  const list: Array<InterventionHooks[K]> = merged[event] ?? [];
  list.push(...toList(value));
  (merged as { [E in K]?: Array<InterventionHooks[E]> })[event] = list;
}

function toList<T>(value: T | ReadonlyArray<T>): ReadonlyArray<T> {
  return isList(value) ? value : [value];
}

function isList<T>(value: T | ReadonlyArray<T>): value is ReadonlyArray<T> {
  return Array.isArray(value);
}
