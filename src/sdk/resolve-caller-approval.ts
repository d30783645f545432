import type { Context, FlexibleSchema } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';
import type { ApprovalStatus } from '../run/tool-call-decision.ts';
import { getOwn } from '../util/get-own.ts';
import { validateTypes } from '../util/validate-types.ts';

type ApprovalOptions = Parameters<GenericToolApprovalFunction<ToolSet, Record<string, never>, Context>>[0];

const NOT_APPLICABLE: ApprovalStatus = Object.freeze({ type: 'not-applicable' });

/**
 * The status the caller's own approval settings give a call, resolved as the
 * SDK resolves them when no runtime is around: the caller's `toolApproval`
 * function, else its entry for the tool, else the tool's `needsApproval`
 * (tools looked up by own property only; tool context validated against the
 * tool's `contextSchema`).
 */
export async function resolveCallerApproval(
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined,
  options: ApprovalOptions,
): Promise<ApprovalStatus> {
  const { toolCall, tools, toolsContext, messages, runtimeContext } = options;
  if (typeof toolApproval === 'function') return normalize(await toolApproval(options));

  const toolName = toolCall.toolName;
  const tool = getOwn(tools, toolName);
  const contextOf = () => validateContext(toolName, getOwn(toolsContext, toolName), tool?.contextSchema);
  const entry = getOwn(toolApproval as Record<string, unknown> | undefined, toolName) as
    | ToolApprovalStatus
    | ((input: unknown, options: object) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>)
    | undefined;
  if (entry != null) {
    return normalize(
      typeof entry === 'function'
        ? await entry(toolCall.input, { toolCallId: toolCall.toolCallId, messages, toolContext: await contextOf(), runtimeContext })
        : entry,
    );
  }
  const needsApproval = tool?.needsApproval;
  if (needsApproval == null) return NOT_APPLICABLE;
  const needed =
    typeof needsApproval === 'function'
      ? await needsApproval(toolCall.input as never, { toolCallId: toolCall.toolCallId, messages, context: (await contextOf()) as never })
      : needsApproval;
  return needed ? { type: 'user-approval' } : NOT_APPLICABLE;
}

async function validateContext(toolName: string, context: unknown, schema: FlexibleSchema<unknown> | undefined) {
  if (schema == null) return context;
  return validateTypes({ value: context, schema, context: { field: 'tool context', entityName: toolName } });
}

function normalize(status: ToolApprovalStatus | undefined): ApprovalStatus {
  if (status === undefined) return NOT_APPLICABLE;
  return (typeof status === 'string' ? { type: status } : status) as ApprovalStatus;
}
