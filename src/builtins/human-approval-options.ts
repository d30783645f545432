import type { ToolSet } from 'ai';
import type { Approvers } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent, RunEventContext, ToolCallInfo } from '../actions/intervention-events.ts';
import type { ApprovalRemember } from '../client/approval-answer.ts';
import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { APPROVERS_OPTIONS, confirmOptionsProblem } from '../handlers/confirm-options-problem.ts';
import type { Store } from '../store/store.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * Options of {@link humanApproval}.
 *
 * @example
 * ```ts
 * const options: HumanApprovalOptions = {
 *   tools: ['delete_*', 'send_email'],
 *   prompt: ({ toolCall }) => `Allow ${toolCall.toolName}?`,
 *   remember: { store: createRedisStore({ client: redis }), scope: ({ runtimeContext }) => String(runtimeContext.tenantId) },
 *   expiresInMs: 15 * 60_000,
 * };
 * const approval = humanApproval(options);
 * ```
 */
export interface HumanApprovalOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (and the prefix of its keys in the store). Default `'human-approval'`. */
  readonly name?: string;
  /**
   * Which tool calls need a human: a {@link ToolScope} (names, `*` / `?`
   * globs, `!` negations, MCP annotation selectors such as
   * `{ annotations: { destructiveHint: true } }`), or a predicate.
   */
  readonly tools: ToolScope<TOOLS> | ((event: BeforeToolCallEvent) => boolean);
  /** The question shown to the human. Default: `Allow "<tool>" with <arguments as JSON>?`. */
  readonly prompt?: (event: BeforeToolCallEvent) => string;
  /** Where and for whom decisions are remembered. */
  readonly remember?: {
    /**
     * Holds remembered decisions and the pending requests (their request
     * time). Default: in this process's memory; share one (Redis, a
     * database) across server instances.
     */
    readonly store?: Store;
    /**
     * Whose decisions these are. Default `runtimeContext.userId`. Without
     * a user id (and without this option) nobody can be told apart: an
     * `'always'` answer then counts as `'session'` (this conversation only),
     * and the decision record says so.
     */
    readonly scope?: (context: RunEventContext) => string;
    /** The conversation a `remember: 'session'` answer covers. Default `runtimeContext.sessionId`. */
    readonly session?: (context: RunEventContext) => string | undefined;
    /**
     * What a remembered decision covers. Default: the tool name (any
     * arguments). Return e.g. `` `${toolName}:${input.path}` `` to remember per file.
     */
    readonly key?: (toolCall: ToolCallInfo) => string;
    /**
     * Which `remember` answers are honoured, for approvals and refusals alike.
     * Default `['session', 'always']`; `[]` asks every time.
     */
    readonly accept?: readonly Exclude<ApprovalRemember, 'once'>[];
    /** How long a `'session'` answer lasts. Default 24 hours. */
    readonly sessionTtlMs?: number;
  };
  /**
   * Fail closed: an approval answered more than this many ms after it was
   * requested is refused (the model reads that it expired; the handler's
   * record says so), measured on the handler's store. Default: no limit.
   * The same name as a confirm's `expiresInMs`: a request's expiry.
   */
  readonly expiresInMs?: number;
  /**
   * The request's expiry, as `expiresInMs` says it.
   *
   * @deprecated Use `expiresInMs`: a handler's `timeoutMs` is its own time
   * limit, not its requests' expiry. It still works, and warns once
   * (`InterventionsWarning`, code `'deprecated-option'`).
   */
  readonly timeoutMs?: number;
  /** Who may answer its requests (see `Approvers`). Default: whoever sends the answer. */
  readonly approvers?: Approvers;
  /** How many distinct people must approve a request before its call runs. Default 1. */
  readonly quorum?: number;
}

/** The keys of `remember` in {@link HumanApprovalOptions}. */
const HUMAN_APPROVAL_REMEMBER = knownOptions<NonNullable<HumanApprovalOptions['remember']>>({
  store: true,
  scope: true,
  session: true,
  key: true,
  accept: true,
  sessionTtlMs: true,
});

/** The keys of {@link HumanApprovalOptions}. */
const HUMAN_APPROVAL_OPTIONS = knownOptions<HumanApprovalOptions>({
  name: true,
  tools: true,
  prompt: true,
  remember: HUMAN_APPROVAL_REMEMBER,
  expiresInMs: true,
  timeoutMs: true,
  approvers: APPROVERS_OPTIONS,
  quorum: true,
});

/**
 * Checks the options of the `humanApproval` named `name`: an unknown key
 * (here or in `remember` and `approvers`) is an `UnknownOptionError`, a
 * value its requests cannot use an `InvalidOptionError`. Resolves the
 * expiry from its deprecated name (`timeoutMs`), with the warning that says
 * so.
 */
export function checkHumanApprovalOptions(
  options: HumanApprovalOptions,
  name: string,
): { readonly expiresInMs: number | undefined; readonly warnings: readonly InterventionsWarning[] } {
  const owner = `humanApproval "${name}"`;
  HUMAN_APPROVAL_OPTIONS.check(options, owner);
  const { expiresInMs, timeoutMs } = options;
  if (expiresInMs !== undefined && timeoutMs !== undefined) {
    throw new InvalidOptionError({
      owner,
      option: 'timeoutMs',
      message: 'give the expiry once, as expiresInMs (timeoutMs is its deprecated name).',
    });
  }
  const problem = confirmOptionsProblem({ approvers: options.approvers, quorum: options.quorum, expiresInMs: expiresInMs ?? timeoutMs });
  if (problem !== undefined) {
    const option = problem.option === 'expiresInMs' && timeoutMs !== undefined ? 'timeoutMs' : problem.option;
    throw new InvalidOptionError({ owner, option, message: problem.message.replace(/^expiresInMs/, option) });
  }
  if (timeoutMs === undefined) return { expiresInMs, warnings: [] };
  const deprecated = new InterventionsWarning({
    code: 'deprecated-option',
    handlerName: name,
    option: 'timeoutMs',
    message:
      `ai-interventions: ${owner}: timeoutMs is deprecated, use expiresInMs (the same value: how long a request may be answered). ` +
      "A handler's timeoutMs is its own time limit; timeoutMs keeps working here until the next major version.",
  });
  return { expiresInMs: timeoutMs, warnings: [deprecated] };
}
