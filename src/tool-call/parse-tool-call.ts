import type { LanguageModelV4ToolCall } from '@ai-sdk/provider';
import { parsePartialJson, type Tool, type ToolSet } from 'ai';
import { getOwn } from '../util/get-own.ts';
import { isThenable } from '../util/is-thenable.ts';
import { safeValidateTypes } from '../util/validate-types.ts';

/**
 * Parses and validates a model's tool call the way the SDK will, so handlers
 * see the input the tool would receive. `undefined` when the SDK will reject
 * the call (unknown or inactive tool, invalid JSON, input the schema
 * refuses): such calls are left to the SDK, which reports them to the model.
 */
export function parseToolCall(
  part: LanguageModelV4ToolCall,
  tools: ToolSet | undefined,
  activeTools: readonly string[] | undefined,
): Parsed | undefined | Promise<Parsed | undefined> {
  if (activeTools !== undefined && !activeTools.includes(part.toolName)) return undefined;
  const tool = getOwn(tools, part.toolName);
  if (tool === undefined) return undefined;
  // the Standard Schema side of its input schema (zod, valibot, arktype…), if it has one
  const schema = tool.inputSchema as { readonly '~standard'?: { readonly validate?: StandardValidate } } | null | undefined;
  const standard = schema !== null && typeof schema === 'object' ? schema['~standard'] : undefined;
  // the common case (plain JSON, a Standard Schema such as zod): no extra promises
  if (typeof standard?.validate === 'function' && !NEEDS_SDK_PARSER.test(part.input)) {
    let value: unknown;
    try {
      value = part.input.trim() === '' ? {} : JSON.parse(part.input);
    } catch {
      return undefined;
    }
    const result = standard.validate(value);
    // synchronous validation (zod): no promise
    if (isThenable(result)) return Promise.resolve(result).then(parsedOf);
    return result.issues === undefined ? (result as Parsed) : undefined;
  }
  return parseWithSdk(part, tool);
}

/** What a well-formed call parses to: its input, as the tool would receive it (the schema's result itself, when it has one). */
export interface Parsed {
  readonly value: unknown;
}

function parsedOf(settled: { readonly value?: unknown; readonly issues?: unknown }): Parsed | undefined {
  return settled.issues === undefined ? (settled as Parsed) : undefined;
}

/**
 * As the SDK parses a call: empty input is `{}`, anything else goes through
 * its JSON parser (the one `parsePartialJson` of `ai` tries first, which
 * refuses prototype keys; a repaired parse is not a parse), then the schema.
 */
async function parseWithSdk(part: LanguageModelV4ToolCall, tool: Tool): Promise<Parsed | undefined> {
  let value: unknown = {};
  if (part.input.trim() !== '') {
    const json = await parsePartialJson(part.input);
    if (json.state !== 'successful-parse') return undefined;
    value = json.value;
  }
  const parsed = await safeValidateTypes({ value, schema: tool.inputSchema });
  return parsed.success ? parsed : undefined;
}

/**
 * Input the SDK's JSON parser treats differently from `JSON.parse`:
 * prototype keys (it refuses them) and whitespace `JSON.parse` accepts but
 * its parser may not (a byte-order mark, a no-break space). Such input takes
 * the SDK's own parser.
 */
const NEEDS_SDK_PARSER = /__proto__|constructor|[\uFEFF\u00A0\u2028\u2029]/;

type StandardValidate = (
  value: unknown,
) => { readonly value?: unknown; readonly issues?: unknown } | PromiseLike<{ readonly value?: unknown; readonly issues?: unknown }>;
