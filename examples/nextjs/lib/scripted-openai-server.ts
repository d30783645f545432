/**
 * A scripted, OpenAI-compatible model server on loopback: what the example
 * talks to when `OPENAI_API_KEY` is not set, through the real
 * `@ai-sdk/openai` provider (`createOpenAI({ baseURL })`).
 *
 * It speaks the OpenAI wire format (./openai-wire-server.ts, which the
 * repository's provider tests use too): `POST /v1/responses` (Responses API,
 * the provider's default) and `POST /v1/chat/completions`, each streaming
 * (SSE) or not. Unlike the tests' helper it has no fixed script:
 * every request is decoded into the conversation it carries (user text,
 * assistant text, tool calls, tool results) and `respond(conversation)`
 * decides the next turn from it, as a real model would. Items the server
 * issued are remembered, so the Responses API's `item_reference`s resolve.
 *
 * Listens on 127.0.0.1, on a port the OS assigns; `unref`ed, so it never keeps
 * the process alive.
 */
import { functionCallItemId, messageItemId, startOpenAIWireServer } from './openai-wire-server';

/** One item of the conversation a request carries, in order. */
export type ConversationItem =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string }
  | { readonly kind: 'tool-call'; readonly callId: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'tool-result'; readonly callId: string; readonly name: string; readonly output: string };

/** A tool call of a turn: `input` is sent as JSON. */
export interface TurnToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** The model's next turn: text, tool calls, or both (text first); `paceMs` streams it slowly. */
export interface Turn {
  readonly text?: string;
  readonly toolCalls?: readonly TurnToolCall[];
  readonly paceMs?: number;
}

export interface ScriptedOpenAIServer {
  /** e.g. `http://127.0.0.1:54321/v1`, for `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** How many model requests were answered. */
  readonly requestCount: () => number;
  /** The last model requests, as the provider sent them (JSON bodies, oldest first): what the model read. */
  readonly requests: () => readonly string[];
  close(): Promise<void>;
}

export async function startScriptedOpenAIServer({
  respond,
}: {
  respond: (conversation: readonly ConversationItem[]) => Turn;
}): Promise<ScriptedOpenAIServer> {
  /** Items this server issued, by id (Responses API `item_reference`). */
  const issued = new Map<string, ConversationItem>();
  let requests = 0;
  const bodies: string[] = [];
  const server = await startOpenAIWireServer({
    answer({ n, endpoint, body }) {
      requests++;
      bodies.push(JSON.stringify(body));
      if (bodies.length > MAX_KEPT) bodies.splice(0, bodies.length - MAX_KEPT);
      const turn = respond(endpoint === 'chat' ? fromChatMessages(body) : fromResponsesInput(body, issued));
      // remember what we say, for the item_references of later requests
      if (turn.text !== undefined) issued.set(messageItemId(n), { kind: 'assistant', text: turn.text });
      const calls = (turn.toolCalls ?? []).map(({ name, input }, index) => {
        const id = `call_${n}_${index}_${Math.random().toString(36).slice(2, 8)}`;
        issued.set(functionCallItemId(n, index), { kind: 'tool-call', callId: id, name, input });
        return { id, name, arguments: JSON.stringify(input) };
      });
      return { text: turn.text, calls, usage: USAGE, paceMs: turn.paceMs };
    },
  });
  return { baseURL: server.baseURL, requestCount: () => requests, requests: () => [...bodies], close: () => server.close() };
}

const USAGE = { input: 20, output: 10 };
const MAX_KEPT = 200;

// ---------------------------------------------------------------------------
// decoding the conversation
// ---------------------------------------------------------------------------

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'object' && part !== null && typeof (part as Json).text === 'string' ? (part as Json).text : '',
      )
      .join('');
  }
  return '';
}

function parseArguments(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function withToolNames(items: ConversationItem[]): ConversationItem[] {
  const names = new Map<string, string>();
  return items.map((item) => {
    if (item.kind === 'tool-call') names.set(item.callId, item.name);
    return item.kind === 'tool-result' ? { ...item, name: names.get(item.callId) ?? item.name } : item;
  });
}

/** Chat Completions: `messages`. */
function fromChatMessages(body: Json): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const message of (body.messages as Json[] | undefined) ?? []) {
    if (message.role === 'user') items.push({ kind: 'user', text: textOf(message.content) });
    else if (message.role === 'assistant') {
      const text = textOf(message.content);
      if (text !== '') items.push({ kind: 'assistant', text });
      for (const call of (message.tool_calls as Json[] | undefined) ?? []) {
        const fn = call.function as Json;
        items.push({ kind: 'tool-call', callId: String(call.id), name: String(fn.name), input: parseArguments(fn.arguments) });
      }
    } else if (message.role === 'tool') {
      items.push({ kind: 'tool-result', callId: String(message.tool_call_id), name: '', output: textOf(message.content) });
    }
  }
  return withToolNames(items);
}

/** Responses API: `input` (with `item_reference`s to items this server issued). */
function fromResponsesInput(body: Json, issued: ReadonlyMap<string, ConversationItem>): ConversationItem[] {
  const items: ConversationItem[] = [];
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as Json[] | undefined) ?? []);
  for (const item of input) {
    if (item.type === 'item_reference') {
      const known = issued.get(String(item.id));
      if (known !== undefined) items.push(known);
    } else if (item.type === 'function_call') {
      items.push({ kind: 'tool-call', callId: String(item.call_id), name: String(item.name), input: parseArguments(item.arguments) });
    } else if (item.type === 'function_call_output') {
      items.push({ kind: 'tool-result', callId: String(item.call_id), name: '', output: textOf(item.output) });
    } else if (item.role === 'user') {
      items.push({ kind: 'user', text: textOf(item.content) });
    } else if (item.role === 'assistant') {
      const text = textOf(item.content);
      if (text !== '') items.push({ kind: 'assistant', text });
    }
  }
  return withToolNames(items);
}
