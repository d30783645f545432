import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent, ToolCallInfo } from '../handlers/intervention-events.ts';
import type {
  Awaitable,
  BeforeToolCallAction,
  HandlerMode,
  InterventionHandlerLike,
  OnError,
} from '../handlers/intervention-handler.ts';

/**
 * One tool name pattern: an exact name (`'send_email'`), a glob (`'fs_*'`,
 * `'mcp__github__*'`, `'*'`; `*` matches any run of characters, `?` exactly
 * one, everything else is literal and case-sensitive), or a negated pattern
 * (`'!delete_*'`) that excludes what it matches.
 *
 * @example
 * ```ts
 * const readOnlyFs: ToolPattern = 'fs_read*';
 * ```
 */
export type ToolPattern = string;

/**
 * One {@link ToolPattern} or a list of them. A name matches a list when it
 * matches at least one positive pattern and no negated one; a list of only
 * negated patterns means "every tool except": `['!delete_*']` matches all
 * but the `delete_` tools. An empty list matches nothing.
 *
 * @example
 * ```ts
 * const fsExceptDelete: ToolPatterns = ['fs_*', '!fs_delete*'];
 * const everythingButShell: ToolPatterns = '!run_shell';
 * ```
 */
export type ToolPatterns = ToolPattern | readonly ToolPattern[];

/**
 * Compiles {@link ToolPatterns} into a predicate over tool names (globs are
 * compiled once). Throws a `TypeError` for an empty pattern or a lone `'!'`.
 * The built-ins use it for their `tools` options; use it in your own
 * handlers to scope them the same way.
 *
 * @example
 * ```ts
 * const isFs = toolMatcher(['fs_*', '!fs_delete*']);
 * isFs('fs_read');   // true
 * isFs('fs_delete'); // false
 * isFs('search');    // false
 * ```
 */
export function toolMatcher(patterns: ToolPatterns): (toolName: string) => boolean {
  const list: readonly ToolPattern[] = typeof patterns === 'string' ? [patterns] : patterns;
  if (list.length === 0) return () => false;
  const include: Array<(name: string) => boolean> = [];
  const exclude: Array<(name: string) => boolean> = [];
  for (const pattern of list) {
    if (typeof pattern !== 'string' || pattern === '' || pattern === '!') {
      throw new TypeError(`Invalid tool pattern ${JSON.stringify(pattern)}: use a tool name, a glob such as 'fs_*', or a negation such as '!delete_*'`);
    }
    if (pattern.startsWith('!')) exclude.push(compileGlob(pattern.slice(1)));
    else include.push(compileGlob(pattern));
  }
  return (toolName) =>
    (include.length === 0 || include.some((matches) => matches(toolName))) &&
    !exclude.some((matches) => matches(toolName));
}

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
export type ToolPolicyCondition = (
  input: Readonly<Record<string, unknown>>,
  event: BeforeToolCallEvent,
) => Awaitable<boolean>;

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
export type ToolPolicyRule =
  | {
      readonly allow: ToolPatterns;
      readonly deny?: never;
      readonly confirm?: never;
      readonly when?: ToolPolicyCondition;
    }
  | {
      readonly deny: ToolPatterns;
      readonly allow?: never;
      readonly confirm?: never;
      readonly when?: ToolPolicyCondition;
      /** What the model reads. Default: names the tool and the policy. */
      readonly reason?: ToolPolicyMessage;
    }
  | {
      readonly confirm: ToolPatterns;
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
export interface ToolPolicyOptions {
  /** The handler's name (records, guide tags). Default `'tool-policy'`. */
  readonly name?: string;
  /** Evaluated in order; the first rule whose tools and `when` match decides. */
  readonly rules: readonly ToolPolicyRule[];
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

/**
 * An allow / deny / confirm policy over tool names and globs, total over
 * every tool the model can call (`policy-opa`'s `wrapMcpTools` default,
 * Strands' `allowedTools: ['*', '!tool']`, seed 000's `ToolGuard` and
 * `EnvironmentGuard`, seed 002's command allowlist).
 *
 * Rules are evaluated in order and the first match wins: a rule matches when
 * the tool name matches its patterns ({@link ToolPatterns}: names, `*` / `?`
 * globs, `!` negations) and its `when` condition, if any, returns `true`.
 * `allow` proceeds, `deny` blocks the call (the model reads the reason and
 * the tool does not run), `confirm` asks a human (AI SDK tool approval). A
 * call no rule matches gets `default`, so tools added at runtime (MCP,
 * `dynamicTool`) are never silently uncovered.
 *
 * Default texts name the tool: deny `Tool "delete_file" is denied by the
 * "tool-policy" policy.`, unmatched deny `Tool "mcp__x" is not allowed: no
 * rule of the "tool-policy" policy covers it.`, confirm
 * `Allow the call to "send_email" with {"to":"bob@example.com"}?`. A string
 * `reason` / `prompt` is used as written (the model's deny text names the
 * tool anyway); a function receives the call.
 *
 * The policy fails closed by default (`onError: 'deny'`): a `when` that
 * throws denies the call. Tools the runtime cannot see (provider-executed
 * tools) are not covered.
 *
 * @example
 * ```ts
 * const ALLOWED_COMMANDS = ['ls', 'pwd', 'cat', 'head', 'tail'];
 * const firstWord = (command: unknown) => String(command).split(' ')[0] ?? '';
 * const policy = toolPolicy({
 *   rules: [
 *     { deny: 'query_database', when: ({ database }) => String(database).includes('prod'), reason: 'Production database access is not allowed' },
 *     { deny: 'bash', when: ({ command }) => !ALLOWED_COMMANDS.includes(firstWord(command)), reason: 'Only ls, pwd, cat, head and tail may run' },
 *     { confirm: ['delete_*', 'send_email'] },
 *     { allow: ['search', 'fs_read*', 'query_database', 'bash'] },
 *   ],
 *   default: 'deny', // every other tool, including MCP tools, is blocked
 * });
 * const interventions = createInterventions({ handlers: [policy] });
 * ```
 */
export function toolPolicy({
  name = 'tool-policy',
  rules,
  default: fallback,
  onError = 'deny',
  timeoutMs,
  mode,
}: ToolPolicyOptions): InterventionHandlerLike {
  if (!Array.isArray(rules)) throw new TypeError(`toolPolicy "${name}": rules must be an array`);
  const compiled = rules.map((rule, index) => compileRule(name, rule, index));
  const otherwise = compileDefault(name, fallback);

  return {
    name,
    onError,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(mode === undefined ? {} : { mode }),
    async beforeToolCall(event: BeforeToolCallEvent): Promise<BeforeToolCallAction> {
      const { toolCall } = event;
      for (const rule of compiled) {
        if (!rule.matches(toolCall.toolName)) continue;
        if (rule.when !== undefined && (await rule.when(asRecord(toolCall.input), event)) !== true) continue;
        return rule.decide(toolCall, event);
      }
      return otherwise(toolCall, event);
    },
  };
}

type Decide = (toolCall: ToolCallInfo, event: BeforeToolCallEvent) => BeforeToolCallAction;

interface CompiledRule {
  readonly matches: (toolName: string) => boolean;
  readonly when: ToolPolicyCondition | undefined;
  readonly decide: Decide;
}

function compileRule(policy: string, rule: ToolPolicyRule, index: number): CompiledRule {
  const keys = (['allow', 'deny', 'confirm'] as const).filter((key) => rule[key] !== undefined);
  if (keys.length !== 1) {
    throw new TypeError(
      `toolPolicy "${policy}": rule ${index} must have exactly one of allow, deny or confirm (it has ${keys.length === 0 ? 'none' : keys.join(', ')})`,
    );
  }
  const when = rule.when;
  if (when !== undefined && typeof when !== 'function') {
    throw new TypeError(`toolPolicy "${policy}": rule ${index}'s when must be a function`);
  }
  if (rule.allow !== undefined) {
    return { matches: toolMatcher(rule.allow), when, decide: () => InterventionActions.proceed() };
  }
  if (rule.deny !== undefined) {
    return { matches: toolMatcher(rule.deny), when, decide: denyWith(rule.reason ?? deniedBy(policy)) };
  }
  return { matches: toolMatcher(rule.confirm), when, decide: confirmWith(rule.prompt ?? askToAllow) };
}

function compileDefault(policy: string, fallback: ToolPolicyDefault): Decide {
  if (fallback === 'allow') return () => InterventionActions.proceed();
  if (fallback === 'deny') return denyWith(notCovered(policy));
  if (fallback === 'confirm') return confirmWith(askToAllow);
  if (typeof fallback === 'object' && fallback !== null) {
    if (fallback.action === 'deny') return denyWith(fallback.reason);
    if (fallback.action === 'confirm') return confirmWith(fallback.prompt);
  }
  throw new TypeError(
    `toolPolicy "${policy}": default must be 'allow', 'deny', 'confirm', { action: 'deny', reason } or { action: 'confirm', prompt }`,
  );
}

function denyWith(reason: ToolPolicyMessage): Decide {
  return (toolCall, event) => InterventionActions.deny(render(reason, toolCall, event));
}

function confirmWith(prompt: ToolPolicyMessage): Decide {
  return (toolCall, event) => InterventionActions.confirm(render(prompt, toolCall, event));
}

function render(message: ToolPolicyMessage, toolCall: ToolCallInfo, event: BeforeToolCallEvent): string {
  return typeof message === 'string' ? message : message(toolCall, event);
}

function deniedBy(policy: string): ToolPolicyMessage {
  return ({ toolName }) => `Tool "${toolName}" is denied by the "${policy}" policy.`;
}

function notCovered(policy: string): ToolPolicyMessage {
  return ({ toolName }) => `Tool "${toolName}" is not allowed: no rule of the "${policy}" policy covers it.`;
}

const MAX_PROMPT_INPUT = 500;

function askToAllow({ toolName, input }: ToolCallInfo): string {
  let shown: string;
  try {
    shown = JSON.stringify(input) ?? String(input);
  } catch {
    shown = String(input);
  }
  if (shown.length > MAX_PROMPT_INPUT) shown = `${shown.slice(0, MAX_PROMPT_INPUT)}…`;
  return `Allow the call to "${toolName}" with ${shown}?`;
}

function compileGlob(glob: string): (name: string) => boolean {
  if (!/[*?]/.test(glob)) return (name) => name === glob;
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[\\s\\S]*').replaceAll('?', '[\\s\\S]');
  const regex = new RegExp(`^${source}$`);
  return (name) => regex.test(name);
}

function asRecord(input: unknown): Readonly<Record<string, unknown>> {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}
