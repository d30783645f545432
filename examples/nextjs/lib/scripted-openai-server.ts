/**
 * A scripted, OpenAI-compatible model server on loopback: what the example
 * talks to when `OPENAI_API_KEY` is not set, through the real
 * `@ai-sdk/openai` provider (`createOpenAI({ baseURL })`).
 *
 * It speaks the OpenAI wire format, as the repository's test helper
 * (test/helpers/openai-compatible-server.ts) does: `POST /v1/responses`
 * (Responses API, the provider's default) and `POST /v1/chat/completions`,
 * each streaming (SSE) or not. Unlike that helper it has no fixed script:
 * every request is decoded into the conversation it carries (user text,
 * assistant text, tool calls, tool results) and `respond(conversation)`
 * decides the next turn from it, as a real model would. Items the server
 * issued are remembered, so the Responses API's `item_reference`s resolve.
 *
 * Listens on 127.0.0.1, on a port the OS assigns; `unref`ed, so it never keeps
 * the process alive.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** The model's next turn: text, tool calls, or both (text first). */
export interface Turn {
  readonly text?: string;
  readonly toolCalls?: readonly TurnToolCall[];
}

export interface ScriptedOpenAIServer {
  /** e.g. `http://127.0.0.1:54321/v1`, for `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** How many model requests were answered. */
  readonly requestCount: () => number;
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

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, `scripted model failure: ${String(error)}`, 'server_error');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(request);
    const endpoint =
      url.pathname === '/v1/chat/completions' ? 'chat' : url.pathname === '/v1/responses' ? 'responses' : undefined;
    if (request.method !== 'POST' || endpoint === undefined) {
      sendError(response, 404, `Unknown route ${request.method ?? '?'} ${url.pathname}`, 'invalid_request_error');
      return;
    }
    let body: Json;
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      sendError(response, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
      return;
    }
    const n = requests++;
    const conversation = endpoint === 'chat' ? fromChatMessages(body) : fromResponsesInput(body, issued);
    const turn = respond(conversation);
    const ctx: TurnContext = {
      n,
      model: typeof body.model === 'string' ? body.model : 'scripted',
      created: Math.floor(Date.now() / 1000),
      text: turn.text,
      calls: (turn.toolCalls ?? []).map((call, index) => ({
        id: `call_${n}_${index}_${Math.random().toString(36).slice(2, 8)}`,
        name: call.name,
        arguments: JSON.stringify(call.input),
      })),
    };
    const stream = body.stream === true;
    if (endpoint === 'chat') {
      const includeUsage = (body.stream_options as Json | undefined)?.include_usage === true;
      if (stream) sendEvents(response, chatChunks(ctx, includeUsage).map((chunk) => ({ data: JSON.stringify(chunk) })), true);
      else sendJson(response, chatCompletion(ctx));
      return;
    }
    // remember what we said, for the item_references of later requests
    if (ctx.text !== undefined) issued.set(messageId(ctx), { kind: 'assistant', text: ctx.text });
    ctx.calls.forEach((call, index) =>
      issued.set(functionCallItemId(ctx, index), {
        kind: 'tool-call',
        callId: call.id,
        name: call.name,
        input: JSON.parse(call.arguments) as Record<string, unknown>,
      }),
    );
    if (stream) {
      sendEvents(
        response,
        responsesEvents(ctx, body).map((event) => ({ event: event.type as string, data: JSON.stringify(event) })),
        false,
      );
    } else {
      sendJson(response, responsesObject(ctx, body, 'completed', outputItems(ctx)));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------
// decoding the conversation
// ---------------------------------------------------------------------------

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as Json).text === 'string' ? (part as Json).text : ''))
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

// ---------------------------------------------------------------------------
// wire format (as in test/helpers/openai-compatible-server.ts)
// ---------------------------------------------------------------------------

interface TurnContext {
  readonly n: number;
  readonly model: string;
  readonly created: number;
  readonly text: string | undefined;
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
}

const USAGE = { input: 20, output: 10 };

/** Splits a string into pieces of about `size` characters (at least one piece). */
function pieces(value: string, size: number): string[] {
  if (value.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

/** Splits text after each word, as a model streams it. */
function words(value: string): string[] {
  return value.match(/\S+\s*|\s+/g) ?? [value];
}

// -- Chat Completions -------------------------------------------------------

function chatUsage(): Json {
  return {
    prompt_tokens: USAGE.input,
    completion_tokens: USAGE.output,
    total_tokens: USAGE.input + USAGE.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function chatFinishReason(ctx: TurnContext): string {
  return ctx.calls.length > 0 ? 'tool_calls' : 'stop';
}

function chatCompletion(ctx: TurnContext): Json {
  return {
    id: `chatcmpl-scripted${ctx.n}`,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: ctx.text ?? null,
          refusal: null,
          annotations: [],
          ...(ctx.calls.length > 0 && {
            tool_calls: ctx.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          }),
        },
        logprobs: null,
        finish_reason: chatFinishReason(ctx),
      },
    ],
    usage: chatUsage(),
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
}

function chatChunks(ctx: TurnContext, includeUsage: boolean): Json[] {
  const base = {
    id: `chatcmpl-scripted${ctx.n}`,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
  const chunk = (delta: Json, finishReason: string | null = null): Json => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && { usage: null }),
  });
  const chunks: Json[] = [];
  if (ctx.text !== undefined) {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const word of words(ctx.text)) chunks.push(chunk({ content: word }));
  }
  ctx.calls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    chunks.push(
      chunk(index === 0 && ctx.text === undefined ? { role: 'assistant', content: null, tool_calls: [head], refusal: null } : { tool_calls: [head] }),
    );
    for (const piece of pieces(call.arguments, 7)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, chatFinishReason(ctx)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: chatUsage() });
  return chunks;
}

// -- Responses API ----------------------------------------------------------

function responsesUsage(): Json {
  return {
    input_tokens: USAGE.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: USAGE.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: USAGE.input + USAGE.output,
  };
}

function messageId(ctx: TurnContext): string {
  return `msg_scripted${ctx.n}`;
}

function functionCallItemId(ctx: TurnContext, index: number): string {
  return `fc_scripted${ctx.n}_${index}`;
}

function outputTextPart(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function messageItem(ctx: TurnContext, status: 'in_progress' | 'completed', text?: string): Json {
  return { id: messageId(ctx), type: 'message', status, content: text === undefined ? [] : [outputTextPart(text)], role: 'assistant' };
}

function functionCallItem(ctx: TurnContext, index: number, status: 'in_progress' | 'completed'): Json {
  const call = ctx.calls[index]!;
  return {
    id: functionCallItemId(ctx, index),
    type: 'function_call',
    status,
    arguments: status === 'completed' ? call.arguments : '',
    call_id: call.id,
    name: call.name,
  };
}

function outputItems(ctx: TurnContext): Json[] {
  const items: Json[] = [];
  if (ctx.text !== undefined) items.push(messageItem(ctx, 'completed', ctx.text));
  ctx.calls.forEach((_, index) => items.push(functionCallItem(ctx, index, 'completed')));
  return items;
}

function responsesObject(ctx: TurnContext, body: Json, status: 'in_progress' | 'completed', output: Json[]): Json {
  return {
    id: `resp_scripted${ctx.n}`,
    object: 'response',
    created_at: ctx.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model: ctx.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: status === 'completed' ? responsesUsage() : null,
    user: null,
    metadata: {},
  };
}

function responsesEvents(ctx: TurnContext, body: Json): Json[] {
  const events: Json[] = [];
  const push = (event: Json) => events.push({ ...event, sequence_number: events.length });
  push({ type: 'response.created', response: responsesObject(ctx, body, 'in_progress', []) });
  push({ type: 'response.in_progress', response: responsesObject(ctx, body, 'in_progress', []) });
  let outputIndex = 0;
  const text = ctx.text;
  if (text !== undefined) {
    const item_id = messageId(ctx);
    const output_index = outputIndex++;
    push({ type: 'response.output_item.added', output_index, item: messageItem(ctx, 'in_progress') });
    push({ type: 'response.content_part.added', item_id, output_index, content_index: 0, part: outputTextPart('') });
    for (const word of words(text)) {
      push({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta: word, logprobs: [] });
    }
    push({ type: 'response.output_text.done', item_id, output_index, content_index: 0, text, logprobs: [] });
    push({ type: 'response.content_part.done', item_id, output_index, content_index: 0, part: outputTextPart(text) });
    push({ type: 'response.output_item.done', output_index, item: messageItem(ctx, 'completed', text) });
  }
  ctx.calls.forEach((call, index) => {
    const item_id = functionCallItemId(ctx, index);
    const output_index = outputIndex++;
    push({ type: 'response.output_item.added', output_index, item: functionCallItem(ctx, index, 'in_progress') });
    for (const piece of pieces(call.arguments, 7)) {
      push({ type: 'response.function_call_arguments.delta', item_id, output_index, delta: piece });
    }
    push({ type: 'response.function_call_arguments.done', item_id, output_index, arguments: call.arguments });
    push({ type: 'response.output_item.done', output_index, item: functionCallItem(ctx, index, 'completed') });
  });
  push({ type: 'response.completed', response: responsesObject(ctx, body, 'completed', outputItems(ctx)) });
  return events;
}

// ---------------------------------------------------------------------------
// HTTP plumbing
// ---------------------------------------------------------------------------

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, value: unknown, status = 200): void {
  const payload = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': 'req_scripted',
  });
  response.end(payload);
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, { error: { message, type, param: null, code: null } }, status);
}

/** Writes server-sent events; Chat Completions ends the stream with `data: [DONE]`. */
function sendEvents(response: ServerResponse, events: ReadonlyArray<{ readonly event?: string; readonly data: string }>, done: boolean): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': 'req_scripted',
  });
  for (const { event, data } of events) response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`);
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}
