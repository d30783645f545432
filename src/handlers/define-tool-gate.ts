import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage } from 'ai';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent } from '../actions/intervention-events.ts';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { knownOptions } from '../util/known-options.ts';
import type { InterventionHandlerLike, OnError } from './intervention-handler.ts';

/**
 * What a tool gate sees (seed 002's `beforeToolExecute` event): the call's
 * name, id and arguments, and the run's messages and `runtimeContext`.
 *
 * @example
 * ```ts
 * const noSecrets = ({ arguments: args }: ToolGateEvent): ToolGateResult =>
 *   JSON.stringify(args).includes('API_KEY') ? { allow: false, reason: 'Arguments must not contain secrets' } : { allow: true };
 * interventions.use(defineToolGate({ name: 'no-secrets', gate: noSecrets }));
 * ```
 */
export interface ToolGateEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments as earlier gates and handlers left them. */
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly messages: readonly ModelMessage[];
  readonly runtimeContext: Context;
}

/**
 * A tool gate's answer: block with a reason, or allow, optionally changing
 * some arguments (merged into the others, never replacing them all).
 *
 * @example
 * ```ts
 * const limitResults = defineToolGate({
 *   name: 'limit-results',
 *   gate: ({ toolName, arguments: args }): ToolGateResult =>
 *     toolName === 'search' && Number(args.limit) > 20 ? { allow: true, arguments: { limit: 20 } } : { allow: true },
 * });
 * ```
 */
export interface ToolGateResult {
  readonly allow: boolean;
  readonly reason?: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * What {@link defineToolGate} takes.
 *
 * @inline
 */
interface ToolGateOptions {
  readonly name: string;
  readonly gate: (event: ToolGateEvent) => Awaitable<ToolGateResult>;
  readonly onError?: OnError;
  readonly timeoutMs?: number;
}

const TOOL_GATE_OPTIONS = knownOptions<ToolGateOptions>({ name: true, gate: true, onError: true, timeoutMs: true });

/**
 * A `beforeToolCall` handler written as an `{ allow, reason, arguments }`
 * gate (seed 002's `beforeToolExecute`). Gates are handlers, so they keep
 * that seed's merge strategy with no second mechanism: the first block wins
 * (a deny short-circuits), and arguments merge from gate to gate until a
 * block, a gate returning some arguments keeping the others.
 *
 * @example
 * ```ts
 * const ALLOWED = ['ls', 'pwd', 'cat', 'head', 'tail'];
 * interventions.use(
 *   defineToolGate({
 *     name: 'command-allowlist',
 *     gate: (event) => {
 *       if (event.toolName !== 'bash') return { allow: true };
 *       const first = String(event.arguments.command).split(' ')[0] ?? '';
 *       return ALLOWED.includes(first) ? { allow: true } : { allow: false, reason: `Command '${first}' not in allowlist` };
 *     },
 *   }),
 * );
 * ```
 */
export function defineToolGate(options: ToolGateOptions): InterventionHandlerLike {
  TOOL_GATE_OPTIONS.check(options, `defineToolGate "${options.name}"`);
  const { name, gate, onError, timeoutMs } = options;
  return {
    name,
    ...(onError === undefined ? {} : { onError }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    async beforeToolCall(event: BeforeToolCallEvent): Promise<BeforeToolCallAction> {
      const input = event.toolCall.input;
      const result = await gate({
        toolName: event.toolCall.toolName,
        toolCallId: event.toolCall.toolCallId,
        arguments: isRecord(input) ? input : {},
        messages: event.messages,
        runtimeContext: event.runtimeContext,
      });
      if (!result.allow) {
        return InterventionActions.deny(result.reason ?? `The "${name}" gate blocked this call`);
      }
      const changes = result.arguments;
      if (changes === undefined || Object.keys(changes).length === 0) return InterventionActions.proceed();
      return InterventionActions.transform<BeforeToolCallEvent>((draft) => {
        const current = draft.toolCall.input;
        draft.toolCall.input = { ...(isRecord(current) ? current : {}), ...changes };
      });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
