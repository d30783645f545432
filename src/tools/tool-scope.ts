import type { Tool, ToolSet } from 'ai';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import { closestName } from '../util/closest-name.ts';
import { TOOL_ANNOTATION_HINTS, type ToolAnnotationHint, type ToolAnnotationHints, toolAnnotations } from './tool-annotations.ts';

/**
 * Selects tools by their MCP annotations (see {@link ToolAnnotationHints}):
 * a tool matches when every hint named here has the value given, after the
 * MCP specification's defaults are applied to the hints the tool does not
 * declare ({@link toolAnnotations}). So `{ annotations: { destructiveHint:
 * true } }` also matches a tool that says nothing (the specification assumes
 * it may be destructive), and `{ annotations: { readOnlyHint: true } }`
 * matches only tools that declare themselves read-only.
 *
 * Only tools whose annotations the app trusts ({@link trustToolAnnotations})
 * are read as they declare; any other tool is read as declaring nothing, the
 * strictest reading. So a server's own annotations never take a tool out of
 * a scope that restricts it (`sinks`, a `deny` or `confirm` rule, a
 * handler's `tools`) nor put it into one that relaxes it (`trusted`, an
 * `allow` rule).
 *
 * @example
 * ```ts
 * const destructive: ToolAnnotationSelector = { annotations: { destructiveHint: true } };
 * const writesAnything: ToolAnnotationSelector = { annotations: { readOnlyHint: false } };
 * ```
 */
export interface ToolAnnotationSelector {
  readonly annotations: ToolAnnotationHints;
}

/**
 * One entry of a {@link ToolScope}: a tool name (`'send_email'`), a glob
 * (`'fs_*'`, `'mcp__github__*'`, `'*'`: `*` matches any run of characters,
 * `?` exactly one, everything else is literal and case-sensitive), a negated
 * name or glob (`'!poll_*'`), or an annotation selector
 * (`{ annotations: { destructiveHint: true } }`).
 *
 * Typed by a tool set (`ToolSelector<typeof tools>`), a name (plain or
 * negated) must be one of its tools, as the AI SDK types `toolApproval` by
 * tool name: a typo is a compile error. Globs stay any text with a `*` or
 * `?`. Untyped (the default), any string is accepted and checked against
 * each run's tools instead (see `strictScopes`).
 *
 * @example
 * ```ts
 * const selectors: ToolSelector[] = ['delete_*', '!delete_draft', { annotations: { destructiveHint: true } }];
 * const typed: ToolSelector<typeof tools>[] = ['delete_file', 'send_*']; // 'delete_files' would not compile
 * ```
 */
export type ToolSelector<TOOLS extends ToolSet = ToolSet> = ToolNamePattern<keyof TOOLS & string> | ToolAnnotationSelector;

/**
 * A tool name of `NAME`, a glob (any text with a `*` or `?`), or either
 * negated with `!`. With `NAME` = `string` (the default), any string.
 *
 * @example
 * ```ts
 * const patterns: ToolNamePattern<'search' | 'delete_file'>[] = ['search', '!delete_file', 'fs_*'];
 * ```
 */
export type ToolNamePattern<NAME extends string = string> =
  | NAME
  | `${string}*${string}`
  | `${string}?${string}`
  | `!${NAME}`
  | `!${string}*${string}`
  | `!${string}?${string}`;

/**
 * Which tools something applies to: one {@link ToolSelector} or a list. The
 * one syntax of every `tools` option in the library (handlers' `tools`,
 * `toolPolicy` rules, `humanApproval`, `rateLimit`, `loopGuard`,
 * `truncateToolResult`, `forTool`).
 *
 * A tool is in scope when it matches at least one positive entry (a name, a
 * glob, an annotation selector) and no negated one. A scope of only
 * negations means "every tool except": `'!poll_*'` is every tool but the
 * `poll_` ones, in every option that takes a scope. A scope that cannot be
 * valid (an empty list, `''`, `'!'`, `'!!x'`, whitespace in a pattern, an
 * unknown hint, a negation of everything, names that are all excluded) is an
 * `InvalidHandlerError` (code `'invalid-tools'`) when the handler is created
 * or registered, never a guard that silently matches nothing. A valid scope
 * that matches no tool of a run is reported (an `InterventionsWarning`,
 * `'scope-matches-no-tool'`, naming the closest tools), and is an error with
 * `strictScopes: true`. Typed by the tool set (`ToolScope<typeof tools>`,
 * or `toolPolicy<typeof tools>(…)`, `defineHandler<typeof tools>(…)`), a
 * name that is not a tool of the set does not compile.
 *
 * @example
 * ```ts
 * const noDeletes = defineHandler({
 *   name: 'no-deletes',
 *   tools: ['delete_*', { annotations: { destructiveHint: true } }, '!delete_draft'],
 *   beforeToolCall: () => InterventionActions.deny('Deleting is not allowed here.'),
 * });
 * ```
 */
export type ToolScope<TOOLS extends ToolSet = ToolSet> = ToolSelector<TOOLS> | readonly ToolSelector<TOOLS>[];

/**
 * A compiled {@link ToolScope}: whether a call to `toolName` is in scope.
 * `tool` is the call's tool definition (read for annotation selectors;
 * `undefined` for a tool the run does not have, which then has the
 * specification's default hints).
 *
 * @example
 * ```ts
 * const inScope: ToolScopeMatcher = toolScope('fs_*');
 * inScope('fs_read'); // true
 * ```
 */
export type ToolScopeMatcher = (toolName: string, tool?: Tool | undefined) => boolean;

/**
 * Compiles a {@link ToolScope} into a predicate over a call's tool name and
 * definition (globs are compiled once). Throws an `InvalidHandlerError`
 * (code `'invalid-tools'`, naming `owner`, the handler the scope belongs to)
 * for a scope that cannot be valid. The built-ins and handlers' `tools` all
 * use it; use it in your own handlers to scope them the same way.
 *
 * @example
 * ```ts
 * const inScope = toolScope(['fs_*', '!fs_delete*'], { owner: 'fs-audit' });
 * inScope('fs_read');   // true
 * inScope('fs_delete'); // false
 * inScope('search');    // false
 *
 * const destructive = toolScope({ annotations: { destructiveHint: true } });
 * destructive('delete_file', tools.delete_file); // true unless the tool declares destructiveHint: false or readOnlyHint: true
 * ```
 */
export function toolScope<TOOLS extends ToolSet = ToolSet>(
  scope: ToolScope<NoInfer<TOOLS>>,
  { owner }: { readonly owner?: string } = {},
): ToolScopeMatcher {
  const invalid = (why: string) =>
    new InvalidHandlerError({
      handlerName: owner,
      code: 'invalid-tools',
      key: 'tools',
      message: `${owner === undefined ? 'A tool scope' : `The tools of "${owner}"`} cannot be valid: ${why} ${SYNTAX}`,
    });
  const list: readonly unknown[] = Array.isArray(scope) ? scope : [scope];
  if (list.length === 0) throw invalid('an empty list matches no tool.');

  const include: Array<ToolScopeMatcher> = [];
  const exclude: Array<(toolName: string) => boolean> = [];
  const exactNames: string[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') {
      const negated = entry.startsWith('!');
      const pattern = negated ? entry.slice(1) : entry;
      const problem = patternProblem(pattern, negated);
      if (problem !== undefined) throw invalid(`${JSON.stringify(entry)} ${problem}.`);
      if (negated) exclude.push(compileGlob(pattern));
      else {
        include.push(compileGlob(pattern));
        if (!isGlob(pattern)) exactNames.push(pattern);
      }
    } else {
      const hints = selectorHints(entry);
      if (typeof hints === 'string') throw invalid(hints);
      include.push((_toolName, tool) => {
        const resolved = toolAnnotations(tool);
        return hints.every(([hint, value]) => resolved[hint] === value);
      });
    }
  }
  const excluded = (toolName: string) => exclude.some((matches) => matches(toolName));
  if (include.length > 0 && include.length === exactNames.length && exactNames.every(excluded)) {
    throw invalid(
      `every name it lists is also excluded (${exactNames.map((name) => JSON.stringify(name)).join(', ')}), so it matches no tool: ` +
        'leave the negations out to match those tools, or list only negations to match every tool but them.',
    );
  }
  if (include.length === 0) return (toolName) => !excluded(toolName);
  return (toolName, tool) => !excluded(toolName) && include.some((matches) => matches(toolName, tool));
}

const SYNTAX =
  "A scope is a tool name, a glob ('delete_*', '?' for one character), a negation ('!poll_*'), " +
  'an annotation selector ({ annotations: { destructiveHint: true } }), or a non-empty list of these.';

/** Why a name or glob (without its `!`) cannot be valid; `undefined` when it can. */
function patternProblem(pattern: string, negated: boolean): string | undefined {
  if (pattern === '') return negated ? 'is a negation of nothing' : 'is empty';
  if (pattern.startsWith('!')) return 'negates twice (use one "!")';
  // eslint-disable-next-line no-control-regex
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check rejects
  if (/[\s\u0000-\u001f\u007f]/u.test(pattern)) return 'has whitespace or a control character, which no tool name has';
  if (negated && /^\*+$/.test(pattern)) return 'excludes every tool, so the scope matches none';
  return undefined;
}

/** The hints an annotation selector requires, or why it cannot be valid. */
function selectorHints(entry: unknown): Array<readonly [ToolAnnotationHint, boolean]> | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    return `${describe(entry)} is neither a tool name, a glob nor { annotations: { … } }.`;
  }
  const keys = Object.keys(entry);
  const unknown = keys.filter((key) => key !== 'annotations');
  if (unknown.length > 0 || !keys.includes('annotations')) {
    return `a selector object has only an \`annotations\` key (it has ${keys.length === 0 ? 'none' : keys.join(', ')}).`;
  }
  const annotations: unknown = (entry as { readonly annotations: unknown }).annotations;
  if (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations)) {
    return `\`annotations\` must be an object of hints, received ${describe(annotations)}.`;
  }
  const hints: Array<readonly [ToolAnnotationHint, boolean]> = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (!(TOOL_ANNOTATION_HINTS as readonly string[]).includes(key)) {
      const near = closestName(key, TOOL_ANNOTATION_HINTS) ?? TOOL_ANNOTATION_HINTS.find((hint) => hint.startsWith(key));
      return `"${key}" is not an annotation hint${near === undefined ? '' : ` (did you mean ${near}?)`}; the hints are ${TOOL_ANNOTATION_HINTS.join(', ')}.`;
    }
    if (typeof value !== 'boolean') return `the hint ${key} must be true or false, received ${describe(value)}.`;
    hints.push([key as ToolAnnotationHint, value]);
  }
  if (hints.length === 0) return '`annotations` names no hint.';
  return hints;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

function compileGlob(glob: string): (toolName: string) => boolean {
  if (!isGlob(glob)) return (toolName) => toolName === glob;
  const source = glob
    .replace(/[.+^${}()|[\]\\/]/g, '\\$&')
    .replaceAll('*', '[\\s\\S]*')
    .replaceAll('?', '[\\s\\S]');
  const regex = new RegExp(`^${source}$`);
  return (toolName) => regex.test(toolName);
}
