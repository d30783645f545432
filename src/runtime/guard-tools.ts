import type { ToolSet } from 'ai';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import { knownOptions } from '../util/known-options.ts';
import { createInterventions } from './create-interventions.ts';
import type { WrapToolsOptions } from './interventions.ts';
import type { InterventionsOptions } from './interventions-options.ts';
import { forToolsWithoutRun } from './warn-at-creation.ts';

/**
 * What `guardTools` / `guardTool` take: a list of handlers, or the handlers,
 * hooks and wording of the private runtime they create.
 *
 * @example
 * ```ts
 * const strict: GuardOptions = {
 *   handlers: [new ToolGuard(['delete_file'])],
 *   wording: { deniedToolCall: ({ reason }) => `Blocked: ${reason}` },
 * };
 * const guarded = guardTools({ search, delete_file }, strict);
 * ```
 */
export type GuardOptions =
  | readonly InterventionHandlerLike[]
  | (Pick<InterventionsOptions, 'handlers' | 'hooks' | 'wording' | 'handlerTimeoutMs' | 'strictScopes' | 'approvalLedger'> &
      WrapToolsOptions);

/** The keys of {@link GuardOptions} (as an object). */
const GUARD_OPTIONS = knownOptions<Exclude<GuardOptions, readonly InterventionHandlerLike[]>>({
  handlers: true,
  hooks: true,
  wording: true,
  handlerTimeoutMs: true,
  strictScopes: true,
  approvalLedger: true,
  runtimeContext: true,
});

/**
 * Decorates tools with handlers and tool-level hooks, without a runtime
 * around the call: use the result with a plain `generateText`,
 * `streamText` or `ToolLoopAgent`. Same `ToolSet` type back; every tool is
 * covered (static, dynamic, MCP), looked up by own property only.
 *
 * `beforeToolCall` deny and guide become the tool's error result (the model
 * reads the same wording as with the wrappers); `confirm` becomes the SDK's
 * approval request through the tool's `needsApproval`.
 *
 * @example
 * ```ts
 * const tools = guardTools({ search, delete_file }, [new ToolGuard(['delete_file'])]);
 * const result = await generateText({ model, tools, stopWhen: isStepCount(5), prompt });
 * ```
 */
export function guardTools<TOOLS extends ToolSet>(tools: TOOLS, guards: GuardOptions): TOOLS {
  if (!isHandlerList(guards)) GUARD_OPTIONS.check(guards, 'guardTools');
  const { runtimeContext, ...options } = isHandlerList(guards) ? { handlers: guards, runtimeContext: undefined } : guards;
  // the plain SDK call signs these tools' approvals (its experimental_toolApprovalSecret), not the runtime
  return createInterventions(forToolsWithoutRun(options)).wrapTools(tools, { runtimeContext });
}

function isHandlerList(guards: GuardOptions): guards is readonly InterventionHandlerLike[] {
  return Array.isArray(guards);
}
