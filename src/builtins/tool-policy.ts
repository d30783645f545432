import type { ToolSet } from 'ai';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import { type DeclaredScope, declaredScope, declareScopes } from '../tools/declared-scopes.ts';
import { type ToolScope, type ToolScopeMatcher, type ToolSelector, toolScope } from '../tools/tool-scope.ts';
import {
  TOOL_POLICY_DEFAULT,
  TOOL_POLICY_OPTIONS,
  TOOL_POLICY_RULE,
  type ToolPolicyCondition,
  type ToolPolicyDefault,
  type ToolPolicyMessage,
  type ToolPolicyOptions,
  type ToolPolicyRule,
} from './tool-policy-options.ts';

/**
 * One tool name pattern. Use {@link ToolSelector}, which this aliases.
 *
 * @deprecated Use `ToolSelector` (the same syntax, plus annotation selectors).
 * @example
 * ```ts
 * const readOnlyFs: ToolPattern = 'fs_read*';
 * ```
 */
export type ToolPattern = ToolSelector;

/**
 * One pattern or a list. Use {@link ToolScope}, which this aliases.
 *
 * @deprecated Use `ToolScope` (the same syntax, plus annotation selectors).
 * @example
 * ```ts
 * const fsExceptDelete: ToolPatterns = ['fs_*', '!fs_delete*'];
 * const everythingButShell: ToolPatterns = '!run_shell';
 * ```
 */
export type ToolPatterns = ToolScope;

/**
 * Compiles a {@link ToolScope} into a predicate: {@link toolScope} without a
 * handler to name in its errors.
 *
 * @deprecated Use `toolScope(scope, { owner })`.
 * @example
 * ```ts
 * const isFs = toolMatcher(['fs_*', '!fs_delete*']);
 * isFs('fs_read');   // true
 * isFs('fs_delete'); // false
 * isFs('search');    // false
 * ```
 */
export function toolMatcher(patterns: ToolScope): ToolScopeMatcher {
  return toolScope(patterns);
}

/**
 * An allow / deny / confirm policy over tool names, globs and MCP
 * annotations, total over
 * every tool the model can call (`policy-opa`'s `wrapMcpTools` default,
 * Strands' `allowedTools: ['*', '!tool']`, seed 000's `ToolGuard` and
 * `EnvironmentGuard`, seed 002's command allowlist).
 *
 * Rules are evaluated in order and the first match wins: a rule matches when
 * the call is in its scope ({@link ToolScope}: names, `*` / `?` globs, `!`
 * negations, annotation selectors such as
 * `{ annotations: { destructiveHint: true } }`) and its `when` condition, if
 * any, returns `true`. A scope that cannot be valid throws an
 * `InvalidHandlerError` naming the policy.
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
 *     { confirm: { annotations: { destructiveHint: true } } }, // other tools that may destroy data (or do not say)
 *   ],
 *   default: 'deny', // every other tool (read-only MCP tools among them) is blocked
 * });
 * const interventions = createInterventions({ handlers: [policy] });
 * ```
 */
export function toolPolicy<TOOLS extends ToolSet = ToolSet>(options: ToolPolicyOptions<NoInfer<TOOLS>>): InterventionHandlerLike<TOOLS> {
  TOOL_POLICY_OPTIONS.check(options, `toolPolicy "${options.name ?? 'tool-policy'}"`);
  const { name = 'tool-policy', rules, default: fallback, onError = 'deny', timeoutMs, mode } = options;
  if (!Array.isArray(rules)) {
    throw new TypeError(
      `toolPolicy "${name}": rules must be a list of rules, each { allow | deny | confirm: a tool scope, when?, reason? or prompt? }, received ${rules === null ? 'null' : typeof rules}`,
    );
  }
  const compiled = rules.map((rule, index) => compileRule(name, rule, index));
  const otherwise = compileDefault(name, fallback);

  // each rule's scope is checked against the runs' tools, like a handler's own
  return declareScopes(
    {
      name,
      onError,
      // it never transforms a call: a streamed step's calls are not held for it
      toolCallActions: ['deny', 'confirm'],
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(mode === undefined ? {} : { mode }),
      async beforeToolCall(event: BeforeToolCallEvent): Promise<BeforeToolCallAction> {
        const { toolCall } = event;
        for (const rule of compiled) {
          if (!rule.scope.matches(toolCall.toolName, event.tool)) continue;
          if (rule.when !== undefined && (await rule.when(asRecord(toolCall.input), event)) !== true) continue;
          return rule.decide(toolCall, event);
        }
        return otherwise(toolCall, event);
      },
    },
    compiled.map((rule) => rule.scope),
  );
}

type Decide = (toolCall: ToolCallInfo, event: BeforeToolCallEvent) => BeforeToolCallAction;

interface CompiledRule {
  readonly scope: DeclaredScope;
  readonly when: ToolPolicyCondition | undefined;
  readonly decide: Decide;
}

function compileRule(policy: string, rule: ToolPolicyRule, index: number): CompiledRule {
  TOOL_POLICY_RULE.check(rule, `toolPolicy "${policy}" rule ${index}`);
  const keys = (['allow', 'deny', 'confirm'] as const).filter((key) => rule[key] !== undefined);
  if (keys.length !== 1) {
    throw new TypeError(
      `toolPolicy "${policy}": rule ${index} must have exactly one of allow, deny or confirm (it has ${keys.length === 0 ? 'none' : keys.join(', ')})`,
    );
  }
  const when = rule.when;
  if (when !== undefined && typeof when !== 'function') {
    throw new TypeError(
      `toolPolicy "${policy}": rule ${index}'s when must be a function (input, event) => boolean, received ${when === null ? 'null' : typeof when}`,
    );
  }
  if (rule.allow !== undefined) {
    return { scope: declaredScope(`rules[${index}].allow`, rule.allow, policy), when, decide: () => InterventionActions.proceed() };
  }
  if (rule.deny !== undefined) {
    return { scope: declaredScope(`rules[${index}].deny`, rule.deny, policy), when, decide: denyWith(rule.reason ?? deniedBy(policy)) };
  }
  return { scope: declaredScope(`rules[${index}].confirm`, rule.confirm, policy), when, decide: confirmWith(rule.prompt ?? askToAllow) };
}

function compileDefault(policy: string, fallback: ToolPolicyDefault): Decide {
  if (fallback === 'allow') return () => InterventionActions.proceed();
  if (fallback === 'deny') return denyWith(notCovered(policy));
  if (fallback === 'confirm') return confirmWith(askToAllow);
  if (typeof fallback === 'object' && fallback !== null) {
    TOOL_POLICY_DEFAULT.check(fallback, `toolPolicy "${policy}" default`);
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

function asRecord(input: unknown): Readonly<Record<string, unknown>> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
