import { LIFECYCLES } from '../actions/lifecycle.ts';
import { InvalidHookError } from '../errors/invalid-hook-error.ts';
import { closestName } from '../util/closest-name.ts';
import type { HookName, HooksConfig, InterventionHooks } from './hook-types.ts';

/** A registered hook and how errors name it. */
export interface HookEntry<K extends HookName> {
  readonly hook: InterventionHooks[K];
  /** e.g. `preToolCall hook "checkPermissions"` or `preToolCall hook #2`. */
  readonly label: string;
}

/** A frozen view of every hook list; runs keep the view they started with. */
export type HookSnapshot = {
  readonly [K in HookName]: ReadonlyArray<HookEntry<K>>;
};

/** Every hook event, in the order of `HookSnapshot`. */
export const HOOK_NAMES: readonly HookName[] = [
  'onChatStart',
  'onChatDone',
  'onChatAbort',
  'onChatError',
  'onMessage',
  'onDecision',
  'preRequest',
  'onResponse',
  'preToolCall',
  'onToolCallResult',
  'onToolCallError',
  'transformContext',
  'gateToolCalls',
  'drainSteering',
  'drainFollowUp',
  'onStatus',
];

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Holds hooks per event in copy-on-write arrays: adding or disposing a hook
 * replaces the list, so a run in flight keeps iterating the list it started
 * with.
 */
export class HookRegistry {
  private lists: { [K in HookName]: ReadonlyArray<HookEntry<K>> };

  constructor(config: HooksConfig = {}) {
    this.lists = Object.fromEntries(HOOK_NAMES.map((name) => [name, EMPTY])) as unknown as { [K in HookName]: ReadonlyArray<HookEntry<K>> };

    for (const name of Object.keys(config)) {
      const value = (config as Record<string, unknown>)[name];
      if (value === undefined) continue;
      for (const hook of Array.isArray(value) ? value : [value]) {
        this.add(name as HookName, hook as never);
      }
    }
  }

  /** Registers `hook` last for `event`; returns an idempotent disposer. */
  add<K extends HookName>(event: K, hook: InterventionHooks[K]): () => void {
    if (!HOOK_NAMES.includes(event)) {
      throw new InvalidHookError({
        event: String(event),
        message: `Unknown hook event ${JSON.stringify(event)}${suggestion(String(event))}; expected one of ${HOOK_NAMES.join(', ')}.`,
      });
    }
    if (typeof hook !== 'function') {
      throw new InvalidHookError({
        event,
        message: `The ${event} hook must be a function, received ${hook === null ? 'null' : typeof hook}.`,
      });
    }
    const position = this.lists[event].length + 1;
    const entry: HookEntry<K> = {
      hook,
      // an arrow function in `hooks: { preToolCall: … }` is named after the event: its position says more
      label: `${event} hook ${hook.name && hook.name !== event ? JSON.stringify(hook.name) : `#${position}`}`,
    };
    this.set(event, [...this.lists[event], entry]);

    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      this.set(
        event,
        this.lists[event].filter((candidate) => candidate !== entry),
      );
    };
  }

  /** The current lists (cheap: no copy). */
  snapshot(): HookSnapshot {
    return this.lists;
  }

  private set<K extends HookName>(event: K, list: ReadonlyArray<HookEntry<K>>): void {
    this.lists = { ...this.lists, [event]: list };
  }
}

/** ` (did you mean preToolCall?)` for a near miss, or nothing. */
function suggestion(event: string): string {
  if ((LIFECYCLES as readonly string[]).includes(event)) {
    return ` (${event} is a handler lifecycle method: put it on a handler, see defineHandler)`;
  }
  const near = closestName(event, HOOK_NAMES);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}
