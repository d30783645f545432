import type { Tool } from 'ai';
import { safeValidateTypes } from '../util/validate-types.ts';

/** The handler name of the records the runtime writes for a person's edit it refused. */
export const EDIT_HANDLER = 'approval-edit';

/**
 * A person's edit of a call's arguments (`approvalAnswer({ input })`),
 * validated against the tool's input schema as the SDK validates a model's
 * arguments: the validated value, or why it is refused (one line, `path:
 * message` per issue). The same check and wording wherever an edit is taken
 * (the wrappers, and tools guarded without a run).
 */
export async function validateEdit(
  tool: Tool | undefined,
  toolName: string,
  value: unknown,
): Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string }> {
  if (tool === undefined) return { ok: false, problem: `there is no tool named "${toolName}" to run with the edited arguments` };
  // a validator that throws is a failed validation (safeValidateTypes)
  const validation = await safeValidateTypes({ value: structuredClone(value), schema: tool.inputSchema });
  if (validation.success) return { ok: true, value: validation.value };
  return { ok: false, problem: `the edited arguments are not valid for "${toolName}": ${issuesOf(validation.error)}` };
}

/** A validation error as one short line: `path: message` per issue (Standard Schema), or its message. */
function issuesOf(error: Error): string {
  const issues: unknown = (error.cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return error.message;
  return issues
    .map((issue: { message?: unknown; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }) => {
      const path = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.');
      return `${path === '' ? '(arguments)' : path}: ${String(issue.message)}`;
    })
    .join('; ');
}
