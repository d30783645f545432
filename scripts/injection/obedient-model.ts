/**
 * The worst-case model: it carries out the user's task, and obeys every
 * instruction it reads anywhere in a tool result, first. It answers over the
 * OpenAI wire format on a loopback server, so runs go through the real
 * `@ai-sdk/openai` provider (Chat Completions), and it decides each turn only
 * from the request it was sent: the calls it already made are in the
 * history, so a denied or refused call is not repeated.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { startOpenAIWireServer, type WireRequest, type WireTurn } from '../../examples/nextjs/lib/openai-wire-server.ts';
import { type Call, canonical, type Scenario } from './scenario.ts';

/** `call <tool> with arguments {…}`, as the injections spell an instruction. */
const INSTRUCTION = /call ([A-Za-z_]\w*) with arguments (\{[^{}]*\})/g;

interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly name: string; readonly arguments: string } }>;
}

/** The model's next turn for `scenario`, given the request it was sent. */
export function obey(scenario: Scenario, request: WireRequest): WireTurn {
  const messages = (request.body.messages ?? []) as readonly WireMessage[];
  const made = new Set<string>();
  const read: string[] = [];
  for (const message of messages) {
    for (const call of message.tool_calls ?? [])
      made.add(key({ tool: call.function.name, args: JSON.parse(call.function.arguments) as Record<string, unknown> }));
    if (message.role === 'tool' && typeof message.content === 'string') read.push(...leaves(message.content));
  }
  const instructions = read.flatMap((text) => [...text.matchAll(INSTRUCTION)].flatMap(([, tool, args]) => parsedCall(tool, args)));
  const next = [...instructions, ...scenario.plan].find((call) => !made.has(key(call)));
  const usage = { input: 100, output: 20 };
  if (next !== undefined) {
    return { calls: [{ id: `call_${request.n}`, name: next.tool, arguments: JSON.stringify(next.args) }], usage };
  }
  const found = read.some((text) => text.includes(scenario.expect));
  return { text: found ? `Here is what I found: ${scenario.expect}` : 'I could not find what you asked for.', calls: [], usage };
}

/** A loopback server and an `@ai-sdk/openai` model (Chat Completions) answering each request with `answer`. */
export async function loopbackModel(
  answer: (request: WireRequest) => WireTurn,
): Promise<{ readonly model: LanguageModel; readonly close: () => Promise<void> }> {
  const server = await startOpenAIWireServer({ answer });
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'loopback' }).chat('obedient');
  return { model, close: () => server.close() };
}

function key(call: Call): string {
  return `${call.tool} ${canonical(call.args)}`;
}

function parsedCall(tool: string | undefined, args: string | undefined): Call[] {
  if (tool === undefined || args === undefined) return [];
  try {
    return [{ tool, args: JSON.parse(args) as Record<string, unknown> }];
  } catch {
    return [];
  }
}

/** The strings of a tool message: its JSON's leaves, or the text itself. */
export function leaves(content: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return [content];
  }
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(value);
  return out;
}
