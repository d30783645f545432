import type { ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { AfterToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import type { AfterToolCallAction } from '../actions/lifecycle.ts';
import type { InterventionHandlerLike, OnError } from '../handlers/intervention-handler.ts';
import { declaredScope, declareScopes } from '../tools/declared-scopes.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * What {@link truncateToolResult} tells its `onTruncate` callback: the call,
 * the full text (keep it in your logs) and what the model reads instead.
 *
 * @example
 * ```ts
 * const keepFullCopy = ({ toolCall, original, omitted }: TruncatedToolResult) =>
 *   console.info({ toolCallId: toolCall.toolCallId, omitted, original });
 * ```
 */
export interface TruncatedToolResult {
  readonly toolCall: ToolCallInfo;
  /** The result as text: the string, or the JSON of any other value. */
  readonly original: string;
  /** The text the model reads: head, notice, tail. */
  readonly truncated: string;
  /** How many characters were cut. */
  readonly omitted: number;
}

/**
 * The options of {@link truncateToolResult}. Give `maxChars`, `maxTokens`,
 * or both (the smaller limit wins); with neither, results are capped at
 * 10,000 characters (seed 002's `afterToolExecute` example).
 *
 * @example
 * ```ts
 * const options: TruncateToolResultOptions = { maxTokens: 2_000, tools: ['fs_read*', 'run_shell'] };
 * ```
 */
export interface TruncateToolResultOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (records). Default `'truncate-tool-result'`. */
  readonly name?: string;
  /** The most characters the model reads of one result, notice included. */
  readonly maxChars?: number;
  /** The most (approximate) tokens: `maxTokens × charsPerToken` characters. */
  readonly maxTokens?: number;
  /**
   * The token approximation. Default 4 characters per token (English prose
   * and JSON with common tokenizers; code and non-Latin scripts use more
   * tokens per character, so lower it for them).
   */
  readonly charsPerToken?: number;
  /** The tools whose results are capped ({@link ToolScope}). Default: all. */
  readonly tools?: ToolScope<TOOLS>;
  /** The share of the kept characters taken from the start (the rest from the end). Default 0.5. */
  readonly headShare?: number;
  /** Called for each truncated result, e.g. to keep the full copy in a log. Its errors are ignored. */
  readonly onTruncate?: (truncated: TruncatedToolResult) => void;
  readonly onError?: OnError;
  readonly timeoutMs?: number;
  readonly mode?: HandlerMode;
}

/** The keys of {@link TruncateToolResultOptions}: `truncateToolResult` checks its options against them. */
export const TRUNCATE_TOOL_RESULT_OPTIONS = knownOptions<TruncateToolResultOptions>({
  name: true,
  maxChars: true,
  maxTokens: true,
  charsPerToken: true,
  tools: true,
  headShare: true,
  onTruncate: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});

const DEFAULT_MAX_CHARS = 10_000;
/** The smallest limit: room for the notice and some text on each side. */
const MIN_CHARS = 100;

/**
 * Caps what the model reads of a tool result (user ask 17: results north of
 * 100k tokens wedge a chat; seed 002's `afterToolExecute` truncation), as an
 * `afterToolCall` transform.
 *
 * A string result longer than the limit, or any other result whose JSON is
 * (`JSON.stringify`, as providers send it), becomes a string: its head, an
 * honest notice, and its tail:
 *
 * ```text
 * <head>
 * [… 12,345 characters omitted …]
 * <tail>
 * ```
 *
 * The whole text, notice included, fits the limit (a hard cap), and a cut
 * never splits a surrogate pair. A cut always removes more characters than
 * the notice adds (the overflow plus the notice's own size), and a limit
 * under 100 characters, too small to hold the notice and some of the
 * result, is rejected when the handler is made. Tokens are approximated as
 * `charsPerToken` (4) characters each: no tokenizer is loaded, so treat
 * `maxTokens` as an estimate and leave a margin. A truncated JSON result is
 * no longer valid JSON; the notice says why.
 *
 * Only what the model reads changes (and what `result.steps` and the UI
 * stream show): pass `onTruncate` to keep the full copy. Results of tools
 * with their own `toModelOutput` are skipped (that function expects the
 * tool's own output type; cap the output there), as are results that cannot
 * be turned into JSON. Register it after handlers that read the full result.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers: [truncateToolResult({ maxTokens: 4_000, tools: ['fs_read*', 'run_shell'] })],
 * });
 * // a 200,000-character file read reaches the model as its first and last ~8,000 characters,
 * // with "[… 184,034 characters omitted …]" between them
 * ```
 */
export function truncateToolResult<TOOLS extends ToolSet = ToolSet>(
  options: TruncateToolResultOptions<NoInfer<TOOLS>> = {},
): InterventionHandlerLike<TOOLS> {
  TRUNCATE_TOOL_RESULT_OPTIONS.check(options, `truncateToolResult "${options.name ?? 'truncate-tool-result'}"`);
  const {
    name = 'truncate-tool-result',
    maxChars,
    maxTokens,
    charsPerToken = 4,
    tools,
    headShare = 0.5,
    onTruncate,
    onError,
    timeoutMs,
    mode,
  } = options;
  const positive = (value: number | undefined, option: string) => {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new RangeError(`truncateToolResult "${name}": ${option} must be a positive number, got ${String(value)}`);
    }
  };
  positive(maxChars, 'maxChars');
  positive(maxTokens, 'maxTokens');
  positive(charsPerToken, 'charsPerToken');
  if (!(headShare >= 0 && headShare <= 1)) {
    throw new RangeError(`truncateToolResult "${name}": headShare must be between 0 and 1, got ${String(headShare)}`);
  }
  const limit = Math.floor(
    maxChars === undefined && maxTokens === undefined
      ? DEFAULT_MAX_CHARS
      : Math.min(maxChars ?? Infinity, maxTokens === undefined ? Infinity : maxTokens * charsPerToken),
  );
  if (limit < MIN_CHARS) {
    throw new RangeError(
      `truncateToolResult "${name}": the limit is ${limit} characters, below ${MIN_CHARS}: too small to hold the notice and any of the result`,
    );
  }
  const scope = tools === undefined ? undefined : declaredScope('tools', tools, name);
  const covered = scope?.matches ?? (() => true);

  // its tools scope is checked against the runs' tools, like a handler's own
  return declareScopes(
    {
      name,
      ...(onError === undefined ? {} : { onError }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(mode === undefined ? {} : { mode }),
      afterToolCall(event: AfterToolCallEvent): AfterToolCallAction {
        if (!covered(event.toolCall.toolName, event.tool)) return InterventionActions.proceed();
        if (event.tool?.toModelOutput !== undefined) return InterventionActions.proceed();
        const original = asText(event.result);
        if (original === undefined || original.length <= limit) return InterventionActions.proceed();
        const cut = truncateText(original, limit, headShare, typeof event.result !== 'string');
        if (cut === undefined) return InterventionActions.proceed();
        if (onTruncate !== undefined) {
          try {
            onTruncate({ toolCall: event.toolCall, original, truncated: cut.text, omitted: cut.omitted });
          } catch {
            // a logging callback never changes what the model reads
          }
        }
        return InterventionActions.transform<AfterToolCallEvent>((draft) => {
          draft.result = cut.text;
        });
      },
    },
    [scope],
  );
}

/** The text the model would read: a string as is, anything else as JSON. */
function asText(result: unknown): string | undefined {
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result);
  } catch {
    return undefined; // a cycle or a bigint: the SDK will report it, not us
  }
}

/**
 * `head + notice + tail` within `limit` characters, or `undefined` when the
 * notice would take as many characters as it replaces (not reachable while
 * `limit` holds the notice: a cut always removes the overflow plus the
 * notice's own size; kept as the invariant's guard).
 */
function truncateText(text: string, limit: number, headShare: number, json: boolean): { text: string; omitted: number } | undefined {
  // the notice's size depends on the count it shows: size it for the largest possible count
  const budget = limit - notice(text.length, json).length;
  let headEnd = Math.round(budget * headShare);
  let tailStart = text.length - (budget - headEnd);
  // never split a surrogate pair
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const omitted = tailStart - headEnd;
  const marker = notice(omitted, json);
  if (omitted <= marker.length) return undefined;
  return { text: `${text.slice(0, headEnd)}${marker}${text.slice(tailStart)}`, omitted };
}

function notice(omitted: number, json: boolean): string {
  return `\n[… ${omitted.toLocaleString('en-US')} characters omitted${json ? ' from this JSON result' : ''} …]\n`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
