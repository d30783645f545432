import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { ToolCallBlockedError } from '../errors/tool-call-blocked-error.ts';
import type { Verdict } from '../handlers/evaluate-interventions.ts';
import type {
  BeforeToolCallEvent,
  ToolCallInfo,
} from '../handlers/intervention-events.ts';
import { cloneToolCallEvent } from './drafts.ts';
import { guardToolSet } from './guard-tool-set.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';
import { StandaloneScope } from './standalone-scope.ts';

type ToolVerdict = Verdict<BeforeToolCallEvent>;

/**
 * Guards tools for a plain `generateText` / `streamText` / `ToolLoopAgent`
 * (no run around them). `beforeToolCall` handlers are evaluated in the
 * tool's `needsApproval` (so `confirm` becomes the SDK's approval request)
 * and the decision is applied in `execute`: deny and guide become the tool's
 * error result, in the same wording the wrappers use.
 *
 * The decision taken in `needsApproval` is handed to `execute` through the
 * step's `messages` array (the SDK passes the same array to both), so each
 * call is evaluated once per step. Without it (a `toolApproval` option
 * overrides `needsApproval`), a `confirm` cannot be answered and blocks the
 * call: it never runs unapproved.
 */
export function guardToolsStandalone<TOOLS extends ToolSet>(
  tools: TOOLS,
  snapshotOf: () => RuntimeSnapshot,
): TOOLS {
  const decisions = new WeakMap<object, Map<string, ToolVerdict>>();

  const evaluate = (
    snapshot: RuntimeSnapshot,
    tool: Tool,
    call: ToolCallInfo,
    options: Pick<ToolExecutionOptions<Context>, 'messages' | 'abortSignal'>,
    approved: boolean,
  ) =>
    new StandaloneScope(snapshot).evaluate({
      event: {
        lifecycle: 'beforeToolCall',
        runtimeContext: {},
        runId: undefined,
        abortSignal: options.abortSignal,
        stepNumber: undefined,
        toolCall: call,
        tool,
        messages: options.messages,
        approved,
        approval: undefined,
      },
      makeDraft: cloneToolCallEvent,
      subject: { toolCallId: call.toolCallId, toolName: call.toolName },
    });

  const beforeExecute: NonNullable<StandaloneScope['beforeExecute']> = async ({ tool, call, options }) => {
    const snapshot = snapshotOf();
    const cached = decisions.get(options.messages)?.get(call.toolCallId);
    decisions.get(options.messages)?.delete(call.toolCallId);
    const verdict = cached ?? (await evaluate(snapshot, tool, call, options, false));
    const { wording } = snapshot;
    if (verdict.type === 'deny') {
      throw new ToolCallBlockedError({
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        decision: 'deny',
        message: wording.deniedToolCall({ toolCall: call, reason: verdict.reason, handler: verdict.handler }),
      });
    }
    if (verdict.type === 'guide') {
      throw new ToolCallBlockedError({
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        decision: 'guide',
        message: wording.guidedToolCall({ toolCall: call, guidance: verdict.guidance }),
      });
    }
    if (verdict.type === 'confirm' && cached === undefined) {
      // needsApproval was not consulted, so nobody approved this call
      throw new ToolCallBlockedError({
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        decision: 'deny',
        message: wording.deniedToolCall({
          toolCall: call,
          reason: `it needs a human's approval (${verdict.prompt ?? ''}), and no approval was asked`,
          handler: 'ai-interventions',
        }),
      });
    }
    return verdict.event.toolCall;
  };

  return guardToolSet(
    tools,
    () => {
      const snapshot = snapshotOf();
      return new StandaloneScope(
        snapshot,
        snapshot.handlers.beforeToolCall.length > 0 ? beforeExecute : undefined,
      );
    },
    (toolName, tool) => ({
      needsApproval: async (input: unknown, options: { toolCallId: string; messages: ToolExecutionOptions<Context>['messages']; context: unknown }) => {
        const snapshot = snapshotOf();
        if (snapshot.handlers.beforeToolCall.length > 0) {
          const call = { toolCallId: options.toolCallId, toolName, input };
          const verdict = await evaluate(snapshot, tool, call, { messages: options.messages, abortSignal: undefined }, false);
          let byCall = decisions.get(options.messages);
          if (byCall === undefined) decisions.set(options.messages, (byCall = new Map()));
          byCall.set(call.toolCallId, verdict);
          if (verdict.type === 'confirm') return true;
        }
        const own = tool.needsApproval;
        return typeof own === 'function'
          ? own(input as never, options as never)
          : own === true;
      },
    }) as Partial<Tool>,
  );
}
