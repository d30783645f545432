import type { Tool } from 'ai';
import { hasTrustedAnnotations } from './trusted-annotations.ts';

/**
 * The behaviour hints of an MCP tool (the MCP specification's
 * `ToolAnnotations`), as `@ai-sdk/mcp` carries them on the tools it returns:
 * on `tool.metadata.annotations`. Give your own tools the same hints with
 * `tool({ …, metadata: { annotations: { readOnlyHint: true } } })`.
 *
 * Hints are what the tool's author claims: the library reads them only on
 * tools the app declared trusted ({@link trustToolAnnotations}); any other
 * tool is read as declaring none (see {@link toolAnnotations}).
 *
 * @example
 * ```ts
 * const readOnly: ToolAnnotationHints = { readOnlyHint: true };
 * const lookup = tool({
 *   inputSchema: z.object({ q: z.string() }),
 *   execute: async ({ q }) => [q],
 *   metadata: { annotations: { readOnlyHint: true, openWorldHint: false } },
 * });
 * ```
 */
export interface ToolAnnotationHints {
  /** The tool does not modify its environment. Default `false`. */
  readonly readOnlyHint?: boolean;
  /** The tool may perform destructive updates. Default `true` (`false` for a read-only tool). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. Default `false` (`true` for a read-only tool). */
  readonly idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities (the web, email). Default `true`. */
  readonly openWorldHint?: boolean;
}

/** The names of the hints, in the specification's order. */
export const TOOL_ANNOTATION_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** One hint's name. */
export type ToolAnnotationHint = (typeof TOOL_ANNOTATION_HINTS)[number];

/**
 * The hints the library's policies act on for `tool`: the ones it declares,
 * when the app trusts its annotations ({@link trustToolAnnotations}), with the
 * MCP specification's defaults filled in for the ones it does not give:
 * `readOnlyHint` false, `destructiveHint` true, `idempotentHint` false,
 * `openWorldHint` true. For a read-only tool, `destructiveHint` and
 * `idempotentHint` (which the specification says are meaningful only for
 * tools that modify their environment) default to `false` and `true`.
 *
 * A tool whose annotations the app has not declared trusted (an MCP server's
 * tools, unless passed through `trustToolAnnotations`), a tool with no hints,
 * one that is not an MCP tool, or a tool the run does not have (`undefined`)
 * gets every default, whatever it declares: it counts as possibly destructive
 * and open-world, never as read-only. That is the strictest reading, so a
 * server's own claims never loosen a policy.
 *
 * @example
 * ```ts
 * const { destructiveHint } = toolAnnotations(tools.delete_file);
 * if (destructiveHint) console.log('delete_file may destroy data (or its server is not trusted to say otherwise)');
 * ```
 */
export function toolAnnotations(tool: Tool | undefined): Required<ToolAnnotationHints> {
  return withDefaults(hasTrustedAnnotations(tool) ? declaredHints(tool) : {});
}

/** `given` with the specification's defaults for the hints it does not give. */
export function withDefaults(given: ToolAnnotationHints): Required<ToolAnnotationHints> {
  const readOnlyHint = given.readOnlyHint ?? false;
  return {
    readOnlyHint,
    destructiveHint: given.destructiveHint ?? !readOnlyHint,
    idempotentHint: given.idempotentHint ?? readOnlyHint,
    openWorldHint: given.openWorldHint ?? true,
  };
}

/** The boolean hints a tool declares on `metadata.annotations` (others are ignored), trusted or not. */
export function declaredHints(tool: Tool | undefined): ToolAnnotationHints {
  const metadata: unknown = (tool as { readonly metadata?: unknown } | undefined)?.metadata;
  if (!isRecord(metadata)) return {};
  const annotations = metadata.annotations;
  if (!isRecord(annotations)) return {};
  const hints: { -readonly [HINT in ToolAnnotationHint]?: boolean } = {};
  for (const hint of TOOL_ANNOTATION_HINTS) {
    const value = annotations[hint];
    if (typeof value === 'boolean') hints[hint] = value;
  }
  return hints;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
