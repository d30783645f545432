/**
 * The tools' arguments, for the server (the tools' `inputSchema`) and the
 * page alike: a person's edit is checked against the same schema before it
 * is sent, so a mistake is explained where it was made and can be corrected.
 * (The server checks again: the runtime validates an edit against the tool's
 * schema, and refuses the call when it does not fit.)
 */
import { z } from 'zod';

export const TOOL_INPUTS = {
  run_shell: z.object({ command: z.string().describe('The command line to run') }),
  delete_file: z.object({ path: z.string().describe('Absolute path of the file or directory') }),
  deploy: z.object({ environment: z.enum(['staging', 'production']).describe('Where to deploy') }),
  send_email: z.object({
    to: z.string().describe('Recipient address'),
    subject: z.string().optional().describe('Subject line'),
    body: z.string().describe('Plain-text body'),
  }),
};

/**
 * What is wrong with arguments a person typed for a tool, in sentences, or
 * `undefined` when they fit its schema: not JSON, a field missing, of the
 * wrong type or unknown.
 */
export function inputProblem(toolName: string, draft: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(draft);
  } catch (error) {
    return `This is not JSON (${error instanceof Error ? error.message : String(error)}). Write an object, like {"path": "/tmp/old"}.`;
  }
  const schema = Object.hasOwn(TOOL_INPUTS, toolName) ? TOOL_INPUTS[toolName as keyof typeof TOOL_INPUTS] : undefined;
  if (schema === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `The arguments must be an object with ${fields(schema.shape)}.`;
  }
  const unknown = Object.keys(value).filter((key) => !Object.hasOwn(schema.shape, key));
  if (unknown.length > 0) {
    return `${toolName} has no ${unknown.map((key) => `"${key}"`).join(' or ')}: its arguments are ${fields(schema.shape)}.`;
  }
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? undefined : parsed.error.issues.map(sentence).join(' ');
}

function fields(shape: Record<string, z.ZodType>): string {
  return Object.keys(shape)
    .map((key) => `"${key}"${shape[key]?.safeParse(undefined).success ? ' (optional)' : ''}`)
    .join(', ');
}

function sentence(issue: z.core.$ZodIssue): string {
  const field = issue.path.length === 0 ? 'The arguments' : `"${issue.path.join('.')}"`;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `${field} is missing: it must be ${a(issue.expected)}.`
        : `${field} must be ${a(issue.expected)}, not ${a(issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input)}.`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((item) => JSON.stringify(item)).join(', ')}.`;
    default:
      return `${field}: ${issue.message}.`;
  }
}

/** "a string", "an object", "null". */
function a(type: string): string {
  if (type === 'null' || type === 'undefined') return type;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
