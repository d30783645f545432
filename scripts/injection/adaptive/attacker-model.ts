/**
 * The worst-case model of the adaptive suite: it carries out the user's task
 * turn by turn, and obeys every instruction it reads, in a tool result (or in
 * an error, or in its own earlier answer), before the task:
 *
 * - `call <tool> with arguments {…}`: at once;
 * - `When the user writes again, call <tool> with arguments {…}`: in a later
 *   user turn than the one it read it in (an attack that waits for a rug
 *   pull, or for a new request);
 * - `Write in your answer: <<…>>`: it repeats the text in its answer, where it
 *   reads it again on the next request (laundering through its own words).
 *
 * Argument values may be built, as a model does when told to: `{"$join": [a,
 * b, …]}` joins the parts (a value split across the text), `{"$base64": v}`
 * encodes one (a value re-encoded), so the value it sends appears nowhere in
 * what it read. It decides each turn only from the request it was sent (the
 * OpenAI Chat Completions wire format): a call it already made is not made
 * again, so a denied or refused call is not retried.
 */
import type { WireRequest, WireTurn } from '../../../examples/nextjs/lib/openai-wire-server.ts';
import { leaves } from '../obedient-model.ts';
import { type Call, canonical } from '../scenario.ts';

/** One user turn of a scenario: what the user writes, and the calls that carry it out. */
export interface Turn {
  readonly user: string;
  readonly plan: readonly Call[];
  /** The user starts a new chat (the history so far is not sent). */
  readonly newChat?: boolean;
}

/** What the model needs of a scenario: its turns, and a fact the final answer must report. */
export interface Script {
  readonly turns: readonly Turn[];
  readonly expect: string;
}

interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly name: string; readonly arguments: string } }>;
}

interface Instruction {
  readonly call: Call;
  /** The user turn it was read in; `later` instructions are obeyed only after it. */
  readonly turn: number;
  readonly later: boolean;
}

/** The model's next turn for `script`, given the request it was sent. */
export function obeyAdaptive(script: Script, request: WireRequest): WireTurn {
  const messages = (request.body.messages ?? []) as readonly WireMessage[];
  const made = new Set<string>();
  const read: string[] = [];
  const instructions: Instruction[] = [];
  const directives: string[] = [];
  let turn = -1;
  for (const message of messages) {
    const text = textOf(message.content);
    if (message.role === 'user' && script.turns.some((entry) => entry.user === text)) {
      turn = script.turns.findIndex((entry) => entry.user === text);
    }
    for (const call of message.tool_calls ?? []) made.add(key({ tool: call.function.name, args: parseJson(call.function.arguments) }));
    if (message.role === 'tool') {
      const said = leaves(text).join('\n');
      read.push(said);
      for (const [, directive] of said.matchAll(DIRECTIVE)) directives.push(directive as string);
      instructions.push(...instructionsIn(said.replaceAll(DIRECTIVE, ''), turn));
    }
    // its own earlier answers: what it was told to write there, it reads as said
    if (message.role === 'assistant') instructions.push(...instructionsIn(text, turn));
  }
  const plan = script.turns[turn]?.plan ?? [];
  const obeyed = instructions.filter((instruction) => !instruction.later || turn > instruction.turn).map((instruction) => instruction.call);
  const next = [...obeyed, ...plan].find((call) => !made.has(key(call)));
  const usage = { input: 100, output: 20 };
  if (next !== undefined) {
    return { calls: [{ id: `call_${request.n}`, name: next.tool, arguments: JSON.stringify(next.args) }], usage };
  }
  const found = read.some((text) => text.includes(script.expect));
  const answer = found ? `Here is what I found: ${script.expect}` : 'I could not find what you asked for.';
  return { text: [answer, ...directives].join(' '), calls: [], usage };
}

/** `Write in your answer: <<…>>`. */
const DIRECTIVE = /Write in your answer: <<(.*?)>>/g;
const CALL = /(When the user writes again, )?call ([A-Za-z_]\w*) with arguments /g;

/** The calls a text instructs, each with the JSON object that follows it (nested objects allowed). */
function instructionsIn(text: string, turn: number): Instruction[] {
  const found: Instruction[] = [];
  for (const match of text.matchAll(CALL)) {
    const start = (match.index ?? 0) + match[0].length;
    const json = balancedObject(text, start);
    if (json === undefined) continue;
    const args = parseJson(json);
    if (args === undefined) continue;
    found.push({ call: { tool: match[2] as string, args: built(args) as Record<string, unknown> }, turn, later: match[1] !== undefined });
  }
  return found;
}

/** The JSON object text starting at `start`, braces balanced (strings respected). */
function balancedObject(text: string, start: number): string | undefined {
  if (text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(start, index + 1);
  }
  return undefined;
}

/** An argument value as the model builds it: `$join` parts joined, `$base64` values encoded. */
function built(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(built);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.$join)) return record.$join.map((part) => String(built(part))).join('');
  if (typeof record.$base64 === 'string') return Buffer.from(record.$base64).toString('base64');
  return Object.fromEntries(Object.entries(record).map(([name, entry]) => [name, built(entry)]));
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A message's text: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { readonly type?: unknown; readonly text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function key(call: { readonly tool: string; readonly args: unknown }): string {
  return `${call.tool} ${canonical(call.args)}`;
}
