import type { Context } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, ToolApprovalConfiguration, ToolSet } from 'ai';
import { getOwn } from '../util/get-own.ts';

type ApprovalOptions = Parameters<GenericToolApprovalFunction<ToolSet, Record<string, never>, Context>>[0];

/** Whether the caller set anything to resolve for this call. */
export function hasCallerApproval(
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined,
  options: Pick<ApprovalOptions, 'toolCall' | 'tools'>,
): boolean {
  return toolApproval !== undefined || getOwn(options.tools, options.toolCall.toolName)?.needsApproval !== undefined;
}
