/**
 * An OpenAI-compatible HTTP server on loopback: it speaks the wire format of
 * the OpenAI API, so the real `@ai-sdk/openai` provider (`createOpenAI({
 * baseURL })`) can talk to a model that is only a function.
 *
 * - `POST /v1/responses` (Responses API, the provider's default) and
 *   `POST /v1/chat/completions` (Chat Completions), each answered as JSON, or
 *   as server-sent events when the body has `stream: true`: text word by
 *   word, tool-call arguments in pieces, usage at the end.
 * - `answer(request)` decides each turn from the parsed request; returning
 *   `{ error }` answers with a 400 OpenAI error (not retryable, so the SDK
 *   does not hide it behind retries).
 *
 * The scripted model of this example and the repository's provider tests
 * (test/helpers/openai-compatible-server.ts) both stand on it. No dependencies
 * beyond `node:http`; listens on 127.0.0.1 only, on a port the OS assigns;
 * `unref`ed, so it never keeps the process alive.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

/** Which API a request used. */
export type Endpoint = 'chat' | 'responses';

/** A request the server received, its JSON body parsed. */
export interface WireRequest {
  /** 0 for the first request the server answers, then 1, 2, … */
  readonly n: number;
  readonly endpoint: Endpoint;
  readonly path: string;
  readonly body: Json;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A tool call of a turn; `arguments` is the JSON text sent as is. */
export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What the model says in one turn: text, tool calls, or both (text first). */
export interface WireTurn {
  readonly text?: string | undefined;
  readonly calls: readonly WireToolCall[];
  readonly usage: { readonly input: number; readonly output: number };
  /** Streamed: wait this long between events (a slow model, one a person can stop). */
  readonly paceMs?: number | undefined;
}

export interface OpenAIWireServer {
  /** e.g. `http://127.0.0.1:54321/v1`, for `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** Stops the server, drops open (keep-alive) connections and releases the port. */
  close(): Promise<void>;
}

/** The id of the message item a Responses API turn `n` issues (what a later `item_reference` names). */
export const messageItemId = (n: number): string => `msg_${n}`;

/** The id of the `index`-th function-call item a Responses API turn `n` issues. */
export const functionCallItemId = (n: number, index: number): string => `fc_${n}_${index}`;

export async function startOpenAIWireServer({
  answer,
}: {
  answer: (request: WireRequest) => WireTurn | { readonly error: string };
}): Promise<OpenAIWireServer> {
  let requests = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, `loopback model failure: ${String(error)}`, 'server_error');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(request);
    const endpoint: Endpoint | undefined =
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
    const turn = answer({ n, endpoint, path: url.pathname, body, headers: { ...request.headers } });
    if ('error' in turn) {
      sendError(response, 400, turn.error, 'invalid_request_error');
      return;
    }
    const ctx: TurnContext = {
      n,
      model: typeof body.model === 'string' ? body.model : 'loopback',
      created: Math.floor(Date.now() / 1000),
      turn,
    };
    const stream = body.stream === true;
    if (endpoint === 'chat') {
      const includeUsage = (body.stream_options as Json | undefined)?.include_usage === true;
      if (stream)
        await sendEvents(
          response,
          chatChunks(ctx, includeUsage).map((chunk) => ({ data: JSON.stringify(chunk) })),
          true,
          turn.paceMs,
        );
      else sendJson(response, chatCompletion(ctx));
    } else if (stream) {
      await sendEvents(
        response,
        responsesEvents(ctx, body).map((event) => ({ event: event.type as string, data: JSON.stringify(event) })),
        false,
        turn.paceMs,
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

  let closed: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
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
  readonly turn: WireTurn;
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

function chatUsage({ turn: { usage } }: TurnContext): Json {
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

function chatFinishReason({ turn }: TurnContext): string {
  return turn.calls.length > 0 ? 'tool_calls' : 'stop';
}

function chatCompletion(ctx: TurnContext): Json {
  const { text, calls } = ctx.turn;
  return {
    id: `chatcmpl-${ctx.n}`,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text ?? null,
          refusal: null,
          annotations: [],
          ...(calls.length > 0 && {
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
        },
        logprobs: null,
        finish_reason: chatFinishReason(ctx),
      },
    ],
    usage: chatUsage(ctx),
    service_tier: 'default',
    system_fingerprint: 'fp_loopback',
  };
}

function chatChunks(ctx: TurnContext, includeUsage: boolean): Json[] {
  const base = {
    id: `chatcmpl-${ctx.n}`,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_loopback',
  };
  const chunk = (delta: Json, finishReason: string | null = null): Json => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && { usage: null }),
  });
  const chunks: Json[] = [];
  const { text, calls } = ctx.turn;

  if (text !== undefined) {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const word of words(text)) chunks.push(chunk({ content: word }));
  }
  calls.forEach((call, index) => {
    // the first delta of a call names it (with empty arguments); the arguments follow in pieces
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    chunks.push(
      chunk(
        index === 0 && text === undefined
          ? { role: 'assistant', content: null, tool_calls: [head], refusal: null }
          : { tool_calls: [head] },
      ),
    );
    for (const piece of pieces(call.arguments, 7)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, chatFinishReason(ctx)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: chatUsage(ctx) });
  return chunks;
}

// -- Responses API ----------------------------------------------------------

function responsesUsage({ turn: { usage } }: TurnContext): Json {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

function outputTextPart(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function messageItem(ctx: TurnContext, status: 'in_progress' | 'completed', text?: string): Json {
  return {
    id: messageItemId(ctx.n),
    type: 'message',
    status,
    content: text === undefined ? [] : [outputTextPart(text)],
    role: 'assistant',
  };
}

function functionCallItem(ctx: TurnContext, index: number, status: 'in_progress' | 'completed'): Json {
  const call = ctx.turn.calls[index]!;
  return {
    id: functionCallItemId(ctx.n, index),
    type: 'function_call',
    status,
    arguments: status === 'completed' ? call.arguments : '',
    call_id: call.id,
    name: call.name,
  };
}

function outputItems(ctx: TurnContext): Json[] {
  const items: Json[] = [];
  if (ctx.turn.text !== undefined) items.push(messageItem(ctx, 'completed', ctx.turn.text));
  ctx.turn.calls.forEach((_, index) => items.push(functionCallItem(ctx, index, 'completed')));
  return items;
}

function responsesObject(ctx: TurnContext, body: Json, status: 'in_progress' | 'completed', output: Json[]): Json {
  return {
    id: `resp_${ctx.n}`,
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

function responsesEvents(ctx: TurnContext, body: Json): Json[] {
  const events: Json[] = [];
  const push = (event: Json) => events.push({ ...event, sequence_number: events.length });

  push({ type: 'response.created', response: responsesObject(ctx, body, 'in_progress', []) });
  push({ type: 'response.in_progress', response: responsesObject(ctx, body, 'in_progress', []) });

  let outputIndex = 0;
  const text = ctx.turn.text;
  if (text !== undefined) {
    const item_id = messageItemId(ctx.n);
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
  ctx.turn.calls.forEach((call, index) => {
    const item_id = functionCallItemId(ctx.n, index);
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
    'x-request-id': 'req_loopback',
  });
  response.end(payload);
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, { error: { message, type, param: null, code: null } }, status);
}

/** Writes server-sent events; Chat Completions ends the stream with `data: [DONE]`. */
async function sendEvents(
  response: ServerResponse,
  events: ReadonlyArray<{ readonly event?: string; readonly data: string }>,
  done: boolean,
  paceMs = 0,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': 'req_loopback',
  });
  for (const { event, data } of events) {
    // a paced stream stops when its reader goes away (the request was aborted)
    if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
    if (response.destroyed) return;
    response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`);
  }
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}
