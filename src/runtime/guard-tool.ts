import type { Tool } from 'ai';
import { knownOptions } from '../util/known-options.ts';
import { type GuardOptions, guardTools } from './guard-tools.ts';

/**
 * What {@link guardTool} takes besides the tool.
 *
 * @inline
 */
interface GuardToolOptions {
  readonly name: string;
  readonly guards: GuardOptions;
}

const GUARD_TOOL_OPTIONS = knownOptions<GuardToolOptions>({ name: true, guards: true });

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
export function guardTool<TOOL extends Tool>(tool: TOOL, options: GuardToolOptions): TOOL {
  GUARD_TOOL_OPTIONS.check(options, 'guardTool');
  const { name, guards } = options;
  const guarded = guardTools({ [name]: tool }, guards)[name];
  return guarded as TOOL;
}
