import type { ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import type { BeforeToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import type { OnError } from '../handlers/intervention-handler.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * A deny reason or confirm prompt: a fixed string, or a function of the call
 * (to name the tool and its arguments).
 *
 * @example
 * ```ts
 * const reason: ToolPolicyMessage = ({ toolName }) => `Tool '${toolName}' is not allowed in this environment`;
 * ```
 */
export type ToolPolicyMessage = string | ((toolCall: ToolCallInfo, event: BeforeToolCallEvent) => string);

/**
 * The argument condition of a {@link ToolPolicyRule}: the rule applies only
 * when it returns `true`. It receives the call's input (as an object: `{}`
 * when the input is not one, the raw value is `event.toolCall.input`) and
 * the whole event (`runtimeContext`, `messages`, …). It may be async.
 *
 * @example
 * ```ts
 * const onProd: ToolPolicyCondition = ({ database }) => String(database).includes('prod');
 * const notAdmin: ToolPolicyCondition = (_input, event) => event.runtimeContext.role !== 'admin';
 * ```
 */
export type ToolPolicyCondition = (input: Readonly<Record<string, unknown>>, event: BeforeToolCallEvent) => Awaitable<boolean>;

/**
 * One rule of a {@link toolPolicy}: exactly one of `allow`, `deny` or
 * `confirm`, naming the tools it covers, and an optional `when` condition on
 * the arguments. `deny` rules may carry a `reason` (what the model reads),
 * `confirm` rules a `prompt` (what the human is asked).
 *
 * @example
 * ```ts
 * const rules: ToolPolicyRule[] = [
 *   { deny: 'query_database', when: ({ database }) => String(database).includes('prod'), reason: 'Production database access is not allowed' },
 *   { confirm: ['send_*', 'delete_*'], prompt: ({ toolName, input }) => `Run ${toolName} with ${JSON.stringify(input)}?` },
 *   { allow: ['search', 'fs_read*', 'query_database'] },
 * ];
 * ```
 */
export type ToolPolicyRule<TOOLS extends ToolSet = ToolSet> =
  | {
      readonly allow: ToolScope<TOOLS>;
      readonly deny?: never;
      readonly confirm?: never;
      readonly when?: ToolPolicyCondition;
    }
  | {
      readonly deny: ToolScope<TOOLS>;
      readonly allow?: never;
      readonly confirm?: never;
      readonly when?: ToolPolicyCondition;
      /** What the model reads. Default: names the tool and the policy. */
      readonly reason?: ToolPolicyMessage;
    }
  | {
      readonly confirm: ToolScope<TOOLS>;
      readonly allow?: never;
      readonly deny?: never;
      readonly when?: ToolPolicyCondition;
      /** What the human is asked. Default: names the tool and shows its arguments. */
      readonly prompt?: ToolPolicyMessage;
    };

/**
 * What a {@link toolPolicy} does with a call no rule matched: `'allow'`,
 * `'deny'`, `'confirm'`, or a deny / confirm with its own reason or prompt.
 *
 * @example
 * ```ts
 * const closed: ToolPolicyDefault = { action: 'deny', reason: ({ toolName }) => `"${toolName}" is not on the allowlist` };
 * ```
 */
export type ToolPolicyDefault =
  | 'allow'
  | 'deny'
  | 'confirm'
  | { readonly action: 'deny'; readonly reason: ToolPolicyMessage }
  | { readonly action: 'confirm'; readonly prompt: ToolPolicyMessage };

/**
 * The options of {@link toolPolicy}.
 *
 * @example
 * ```ts
 * const options: ToolPolicyOptions = { rules: [{ deny: 'delete_*' }], default: 'allow' };
 * ```
 */
export interface ToolPolicyOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (records, guide tags). Default `'tool-policy'`. */
  readonly name?: string;
  /** Evaluated in order; the first rule whose tools and `when` match decides. */
  readonly rules: readonly ToolPolicyRule<TOOLS>[];
  /**
   * For calls no rule matches, including dynamic and MCP tools the app never
   * listed. Required, so the policy is total.
   */
  readonly default: ToolPolicyDefault;
  /**
   * What a throwing `when` (or message function) does. Default `'deny'`: a
   * policy fails closed (the error is on the decision record).
   */
  readonly onError?: OnError;
  readonly timeoutMs?: number;
  readonly mode?: HandlerMode;
}

/** The keys of {@link ToolPolicyRule} (of each of its forms): every rule is checked against them. */
export const TOOL_POLICY_RULE = knownOptions<ToolPolicyRule>({
  allow: true,
  deny: true,
  confirm: true,
  when: true,
  reason: true,
  prompt: true,
});

/** The keys of an object {@link ToolPolicyDefault}. */
export const TOOL_POLICY_DEFAULT = knownOptions<Extract<ToolPolicyDefault, object>>({ action: true, reason: true, prompt: true });

/** The keys of {@link ToolPolicyOptions}: `toolPolicy` checks its options against them. */
export const TOOL_POLICY_OPTIONS = knownOptions<ToolPolicyOptions>({
  name: true,
  rules: true,
  default: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});
