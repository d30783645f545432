import type { ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import type { OnError } from '../handlers/intervention-handler.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * What a {@link loopGuard} detected about a call, and what it does about it.
 * Passed to its `message` option.
 *
 * - `'repeat'`: the same tool with the same arguments, more than
 *   `maxRepeats` times in the run.
 * - `'retry'`: the model re-issued a call whose identical earlier call was
 *   blocked in the current user turn (denied or guided by any handler, or
 *   refused by a human).
 *
 * @example
 * ```ts
 * const message = (loop: LoopDetection) =>
 *   loop.action === 'deny' ? `Stop calling ${loop.toolName} with these arguments.` : `Try something other than ${loop.toolName}.`;
 * ```
 */
export interface LoopDetection {
  readonly kind: 'repeat' | 'retry';
  readonly action: 'guide' | 'deny';
  readonly toolName: string;
  readonly input: unknown;
  /** Identical calls in this run, this one included. */
  readonly calls: number;
  /** Identical earlier calls of the current user turn that were blocked. */
  readonly blocked: number;
  /** The `maxRepeats` setting. */
  readonly maxRepeats: number;
}

/**
 * The options of {@link loopGuard}.
 *
 * @example
 * ```ts
 * const options: LoopGuardOptions = { maxRepeats: 2, then: 'deny', tools: '!poll_*' };
 * ```
 */
export interface LoopGuardOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (records, guide tags). Default `'loop-guard'`. */
  readonly name?: string;
  /** Identical calls (same tool, same arguments) allowed per run. Default 3. */
  readonly maxRepeats?: number;
  /**
   * What a loop gets after the first guide. Default `'deny'`; `'guide'`
   * keeps steering (the call still does not run) without ever denying.
   */
  readonly then?: 'guide' | 'deny';
  /** The tools watched ({@link ToolScope}). Default: all. */
  readonly tools?: ToolScope<TOOLS>;
  /** How many runs' state is kept at most (least recently used first out). Default 1,000. */
  readonly maxRuns?: number;
  /** Replaces the text of the guide / deny. */
  readonly message?: (loop: LoopDetection) => string;
  readonly onError?: OnError;
  readonly timeoutMs?: number;
  readonly mode?: HandlerMode;
}

/** The keys of {@link LoopGuardOptions}: `loopGuard` checks its options against them. */
export const LOOP_GUARD_OPTIONS = knownOptions<LoopGuardOptions>({
  name: true,
  maxRepeats: true,
  // biome-ignore lint/suspicious/noThenProperty: loopGuard's own option, listed as a key (never awaited)
  then: true,
  tools: true,
  maxRuns: true,
  message: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});
