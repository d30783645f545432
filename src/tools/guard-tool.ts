import type { Tool } from 'ai';
import { type GuardOptions, guardTools } from './guard-tools.ts';

/**
 * Decorates one tool, like {@link guardTools}. The tool's `name` is the
 * name the model calls it by (handlers see it as `toolCall.toolName`).
 *
 * @example
 * ```ts
 * const deleteFile = guardTool(delete_file, { name: 'delete_file', guards: [new DeleteApproval()] });
 * const result = await generateText({ model, tools: { delete_file: deleteFile }, prompt });
 * ```
 */
export function guardTool<TOOL extends Tool>(tool: TOOL, { name, guards }: { readonly name: string; readonly guards: GuardOptions }): TOOL {
  const guarded = guardTools({ [name]: tool }, guards)[name];
  return guarded as TOOL;
}
