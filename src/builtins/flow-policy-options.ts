import type { Tool, ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import type { ConfirmOptions } from '../actions/intervention-actions.ts';
import { CONFIRM_TERMS_OPTIONS } from '../handlers/confirm-options-problem.ts';
import type { OnError } from '../handlers/intervention-handler.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * Which tools return untrusted content: a {@link ToolScope} (names, globs,
 * `!` negations, MCP annotation selectors such as
 * `{ annotations: { openWorldHint: true } }`), or a predicate over the tool's
 * name and definition (`undefined` for a tool the run does not have).
 *
 * @example
 * ```ts
 * const web: FlowSources = ['fetch_url', 'search_*', { annotations: { openWorldHint: true } }];
 * const mcpOnly: FlowSources = (toolName) => toolName.startsWith('mcp__');
 * ```
 */
export type FlowSources<TOOLS extends ToolSet = ToolSet> = ToolScope<TOOLS> | ((toolName: string, tool: Tool | undefined) => boolean);

/**
 * What a {@link flowPolicy} does with a call it stops: `'deny'` (the tool does
 * not run, the model reads why), `'confirm'` (a human decides, and is told
 * which untrusted source is in the conversation) or `'guide'` (the tool does
 * not run, the model reads feedback to act on).
 *
 * @example
 * ```ts
 * const strict: FlowDecision = 'deny';
 * ```
 */
export type FlowDecision = 'deny' | 'confirm' | 'guide';

/**
 * The options of {@link flowPolicy}.
 *
 * @example
 * ```ts
 * const options: FlowPolicyOptions = {
 *   sources: ['read_inbox', 'fetch_url'],
 *   sinks: ['send_email', 'transfer_money', 'delete_*'],
 *   onTainted: 'confirm',
 *   arguments: ['to', 'url', 'path', 'amount'],
 * };
 * ```
 */
export interface FlowPolicyOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (records, guide tags). Default `'flow-policy'`. */
  readonly name?: string;
  /**
   * Tools whose results are untrusted. Default
   * `{ annotations: { openWorldHint: true } }`: every tool that does not
   * declare `openWorldHint: false` (by the MCP specification's defaults, a
   * tool with no annotations counts as open-world).
   */
  readonly sources?: FlowSources<TOOLS>;
  /** Tools whose results are trusted even when `sources` matches them. Default: none. */
  readonly trusted?: ToolScope<TOOLS>;
  /**
   * Tools that act: a call to one of them in a tainted conversation gets
   * `onTainted`. Default `{ annotations: { readOnlyHint: false } }`: every
   * tool that does not declare itself read-only.
   */
  readonly sinks?: ToolScope<TOOLS>;
  /** What a sink call in a tainted conversation (or a call with an attacker-controlled argument) gets. Default `'deny'`. */
  readonly onTainted?: FlowDecision;
  /**
   * With `onTainted: 'confirm'`: who may answer, how many must approve and
   * how long the request stays open (see `ConfirmOptions`). Default: whoever
   * sends the answer, once, no expiry.
   */
  readonly approval?: Omit<ConfirmOptions, 'display'>;
  /**
   * Argument provenance: the names of the arguments (top-level keys of a
   * call's input, e.g. `to`, `url`, `path`, `amount`) whose values must not
   * come from untrusted content. A call (to any tool in `argumentTools`,
   * sinks or not) whose such argument holds a value that appears in an
   * untrusted result and nowhere in the user's messages, the system messages
   * or the run's `instructions` gets `onTainted`, even when the tool is not a
   * sink (text the library injects, such as a guide's feedback or steering,
   * is not the user's). Default: none.
   */
  readonly arguments?: readonly string[];
  /** The tools whose `arguments` are checked. Default: every tool. */
  readonly argumentTools?: ToolScope<TOOLS>;
  /** What a throwing `sources` predicate does. Default `'deny'`: the policy fails closed. */
  readonly onError?: OnError;
  readonly timeoutMs?: number;
  readonly mode?: HandlerMode;
}

/** The keys of {@link FlowPolicyOptions}: `flowPolicy` checks its options against them. */
export const FLOW_POLICY_OPTIONS = knownOptions<FlowPolicyOptions>({
  name: true,
  sources: true,
  trusted: true,
  sinks: true,
  onTainted: true,
  approval: CONFIRM_TERMS_OPTIONS,
  arguments: true,
  argumentTools: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});
