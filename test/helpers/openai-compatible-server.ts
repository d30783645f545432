/**
 * A small OpenAI-compatible HTTP server on loopback, for tests that run the
 * real `@ai-sdk/openai` provider end to end.
 *
 * - `POST /v1/chat/completions` (Chat Completions) and `POST /v1/responses`
 *   (Responses API), each non-streaming (JSON) and streaming (SSE, when the
 *   body has `stream: true`), in the wire format the OpenAI API uses.
 * - Every request is recorded (its parsed JSON body, path and headers) in
 *   `requests`, in the order it arrived.
 * - The n-th request (whatever the endpoint) is answered with `script[n]`:
 *   text, one tool call, or several parallel tool calls. A request past the
 *   end of the script gets a 400 OpenAI error (not retryable, so the SDK does
 *   not hide the overrun behind retries).
 *
 * No dependencies beyond `node:http`; listens on 127.0.0.1 only, on a port the
 * OS assigns. `close()` drops open (keep-alive) connections and releases the
 * port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the model "makes": `arguments` is sent as JSON (a string is sent as is). */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>> | string;
}

/** Token counts reported for a turn. */
export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

/** One answer: text, or tool calls (one or several in parallel, optionally after some text). */
export type ScriptedTurn =
  | { readonly text: string; readonly toolCalls?: undefined; readonly usage?: ScriptedUsage }
  | { readonly text?: string; readonly toolCalls: readonly ScriptedToolCall[]; readonly usage?: ScriptedUsage };

export type Endpoint = 'chat' | 'responses';

/** A request the server received. */
export interface RecordedRequest {
  readonly endpoint: Endpoint;
  readonly path: string;
  /** The parsed JSON body, exactly as the provider sent it. */
  readonly body: any;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface OpenAICompatibleServer {
  /** e.g. `http://127.0.0.1:54321/v1`: pass it to `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Stops the server, drops open connections and releases the port. */
  close(): Promise<void>;
}

/** The default usage of a turn. */
export const DEFAULT_USAGE: ScriptedUsage = { input: 10, output: 5 };

/** A text answer. */
export function replyText(text: string, usage?: ScriptedUsage): ScriptedTurn {
  return usage === undefined ? { text } : { text, usage };
}

/** An answer with one or several (parallel) tool calls. */
export function replyToolCalls(...toolCalls: ScriptedToolCall[]): ScriptedTurn {
  return { toolCalls };
}

/** A tool call of a scripted turn. */
export function toolCall(
  id: string,
  name: string,
  args: Readonly<Record<string, unknown>> | string,
): ScriptedToolCall {
  return { id, name, arguments: args };
}

export async function startOpenAICompatibleServer({
  script,
}: {
  script: readonly ScriptedTurn[];
}): Promise<OpenAICompatibleServer> {
  const requests: RecordedRequest[] = [];
  let turnIndex = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendError(response, 500, `test server failure: ${String(error)}`, 'server_error');
      } else {
        response.destroy();
      }
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const endpoint: Endpoint | undefined =
      url.pathname === '/v1/chat/completions' ? 'chat' : url.pathname === '/v1/responses' ? 'responses' : undefined;
    const raw = await readBody(request);
    if (request.method !== 'POST' || endpoint === undefined) {
      sendError(response, 404, `Unknown route ${request.method ?? '?'} ${url.pathname}`, 'invalid_request_error');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(response, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
      return;
    }
    requests.push({ endpoint, path: url.pathname, body, headers: { ...request.headers } });

    const turn = script[turnIndex];
    const n = turnIndex;
    turnIndex++;
    if (turn === undefined) {
      sendError(
        response,
        400,
        `openai-compatible-server: no turn scripted for request ${n + 1} (the script has ${script.length})`,
        'invalid_request_error',
      );
      return;
    }
    const model = typeof (body as { model?: unknown }).model === 'string' ? (body as { model: string }).model : 'gpt-test';
    const stream = (body as { stream?: unknown }).stream === true;
    const ctx: TurnContext = { n, model, created: Math.floor(Date.now() / 1000), turn, usage: turn.usage ?? DEFAULT_USAGE };

    if (endpoint === 'chat') {
      if (stream) {
        const includeUsage = (body as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage === true;
        sendEvents(response, chatChunks(ctx, includeUsage).map((chunk) => ({ data: JSON.stringify(chunk) })), true);
      } else {
        sendJson(response, chatCompletion(ctx));
      }
    } else if (stream) {
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
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

// ---------------------------------------------------------------------------
// wire format
// ---------------------------------------------------------------------------

interface TurnContext {
  readonly n: number;
  readonly model: string;
  readonly created: number;
  readonly turn: ScriptedTurn;
  readonly usage: ScriptedUsage;
}

type Json = Record<string, unknown>;

function argumentsOf(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function calls(ctx: TurnContext): readonly ScriptedToolCall[] {
  return ctx.turn.toolCalls ?? [];
}

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

function chatUsage({ usage }: TurnContext): Json {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatFinishReason(ctx: TurnContext): string {
  return calls(ctx).length > 0 ? 'tool_calls' : 'stop';
}

function chatCompletion(ctx: TurnContext): Json {
  const toolCalls = calls(ctx);
  return {
    id: `chatcmpl-test${ctx.n}`,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: ctx.turn.text ?? null,
          refusal: null,
          annotations: [],
          ...(toolCalls.length > 0 && {
            tool_calls: toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: argumentsOf(call) },
            })),
          }),
        },
        logprobs: null,
        finish_reason: chatFinishReason(ctx),
      },
    ],
    usage: chatUsage(ctx),
    service_tier: 'default',
    system_fingerprint: 'fp_test',
  };
}

function chatChunks(ctx: TurnContext, includeUsage: boolean): Json[] {
  const base = {
    id: `chatcmpl-test${ctx.n}`,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_test',
  };
  const chunk = (delta: Json, finishReason: string | null = null): Json => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && { usage: null }),
  });
  const chunks: Json[] = [];
  const text = ctx.turn.text;
  const toolCalls = calls(ctx);

  if (text !== undefined) {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const word of words(text)) chunks.push(chunk({ content: word }));
  }
  toolCalls.forEach((call, index) => {
    // the first delta of a call names it (with empty arguments); the arguments follow in pieces
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunks.push(
      chunk(
        index === 0 && text === undefined
          ? { role: 'assistant', content: null, tool_calls: [head], refusal: null }
          : { tool_calls: [head] },
      ),
    );
    for (const piece of pieces(argumentsOf(call), 7)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, chatFinishReason(ctx)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: chatUsage(ctx) });
  return chunks;
}

// -- Responses API ----------------------------------------------------------

function responsesUsage({ usage }: TurnContext): Json {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

function messageId(ctx: TurnContext): string {
  return `msg_test${ctx.n}`;
}

function functionCallItemId(ctx: TurnContext, index: number): string {
  return `fc_test${ctx.n}_${index}`;
}

function outputTextPart(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function messageItem(ctx: TurnContext, status: 'in_progress' | 'completed', text?: string): Json {
  return {
    id: messageId(ctx),
    type: 'message',
    status,
    content: text === undefined ? [] : [outputTextPart(text)],
    role: 'assistant',
  };
}

function functionCallItem(
  ctx: TurnContext,
  call: ScriptedToolCall,
  index: number,
  status: 'in_progress' | 'completed',
): Json {
  return {
    id: functionCallItemId(ctx, index),
    type: 'function_call',
    status,
    arguments: status === 'completed' ? argumentsOf(call) : '',
    call_id: call.id,
    name: call.name,
  };
}

function outputItems(ctx: TurnContext): Json[] {
  const items: Json[] = [];
  if (ctx.turn.text !== undefined) items.push(messageItem(ctx, 'completed', ctx.turn.text));
  calls(ctx).forEach((call, index) => items.push(functionCallItem(ctx, call, index, 'completed')));
  return items;
}

function responsesObject(ctx: TurnContext, request: unknown, status: 'in_progress' | 'completed', output: Json[]): Json {
  const body = request as Json;
  return {
    id: `resp_test${ctx.n}`,
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
    usage: status === 'completed' ? responsesUsage(ctx) : null,
    user: null,
    metadata: {},
  };
}

function responsesEvents(ctx: TurnContext, request: unknown): Json[] {
  const events: Json[] = [];
  const push = (event: Json) => events.push({ ...event, sequence_number: events.length });

  push({ type: 'response.created', response: responsesObject(ctx, request, 'in_progress', []) });
  push({ type: 'response.in_progress', response: responsesObject(ctx, request, 'in_progress', []) });

  let outputIndex = 0;
  const text = ctx.turn.text;
  if (text !== undefined) {
    const itemId = messageId(ctx);
    const output_index = outputIndex++;
    push({ type: 'response.output_item.added', output_index, item: messageItem(ctx, 'in_progress') });
    push({ type: 'response.content_part.added', item_id: itemId, output_index, content_index: 0, part: outputTextPart('') });
    for (const word of words(text)) {
      push({ type: 'response.output_text.delta', item_id: itemId, output_index, content_index: 0, delta: word, logprobs: [] });
    }
    push({ type: 'response.output_text.done', item_id: itemId, output_index, content_index: 0, text, logprobs: [] });
    push({ type: 'response.content_part.done', item_id: itemId, output_index, content_index: 0, part: outputTextPart(text) });
    push({ type: 'response.output_item.done', output_index, item: messageItem(ctx, 'completed', text) });
  }
  calls(ctx).forEach((call, index) => {
    const itemId = functionCallItemId(ctx, index);
    const output_index = outputIndex++;
    push({ type: 'response.output_item.added', output_index, item: functionCallItem(ctx, call, index, 'in_progress') });
    for (const piece of pieces(argumentsOf(call), 7)) {
      push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index, delta: piece });
    }
    push({ type: 'response.function_call_arguments.done', item_id: itemId, output_index, arguments: argumentsOf(call) });
    push({ type: 'response.output_item.done', output_index, item: functionCallItem(ctx, call, index, 'completed') });
  });

  push({ type: 'response.completed', response: responsesObject(ctx, request, 'completed', outputItems(ctx)) });
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
    'x-request-id': 'req_test',
  });
  response.end(payload);
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, { error: { message, type, param: null, code: null } }, status);
}

/** Writes server-sent events; Chat Completions ends the stream with `data: [DONE]`. */
function sendEvents(
  response: ServerResponse,
  events: ReadonlyArray<{ readonly event?: string; readonly data: string }>,
  done: boolean,
): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': 'req_test',
  });
  for (const { event, data } of events) {
    response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`);
  }
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}
