/**
 * A loopback server speaking two wire formats whose reasoning must go back
 * to the provider exactly as it came, for the REAL `@ai-sdk/anthropic` and
 * `@ai-sdk/openai` providers:
 *
 * - `POST /v1/messages` (Anthropic Messages): a signed `thinking` block, then
 *   a `tool_use`; JSON, or SSE when the body has `stream: true`. As the real
 *   API does with extended thinking on, a tool-use continuation whose last
 *   assistant message does not start with a thinking block this server
 *   signed, word for word, gets a 400 `invalid_request_error`.
 * - `POST /v1/responses` (OpenAI Responses): a `reasoning` item with a
 *   summary, then a `function_call`; JSON or SSE. With `store` on, a
 *   continuation that sends the function call without its reasoning item
 *   (an `item_reference` to it) gets a 400, as the real API does.
 *
 * The n-th request is answered with the n-th turn of the script: reasoning
 * and a tool call, or text. Every request body is recorded. Listens on
 * 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReasoningTurn =
  | { readonly reasoning: string; readonly call: { readonly name: string; readonly input: Readonly<Record<string, unknown>> } }
  | { readonly text: string };

export interface ReasoningServer {
  /** e.g. `http://127.0.0.1:54321/v1`. */
  readonly baseURL: string;
  /** Every request body, in order, as the provider sent it. */
  readonly bodies: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

type Sender = (response: ServerResponse, body: Record<string, unknown>, n: number) => void;

export async function startReasoningServer(script: readonly ReasoningTurn[]): Promise<ReasoningServer> {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    request.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const n = bodies.length;
      bodies.push(body);
      const turn = script[n];
      const send: Sender | undefined = request.url?.endsWith('/messages')
        ? anthropic(turn)
        : request.url?.endsWith('/responses')
          ? responses(turn)
          : undefined;
      if (send === undefined) return fail(response, `no turn scripted for request ${n + 1}, or unknown path ${request.url}`);
      send(response, body, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The signature this server gives the thinking of request `n`: it checks it when the thinking comes back. */
export const signatureOf = (n: number, thinking: string) => `sig-${n}-${Buffer.from(thinking).toString('base64url')}`;

function fail(response: ServerResponse, message: string, anthropicFormat = false) {
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      anthropicFormat
        ? { type: 'error', error: { type: 'invalid_request_error', message } }
        : { error: { message, type: 'invalid_request_error', param: null, code: null } },
    ),
  );
}

function sse(response: ServerResponse, events: ReadonlyArray<readonly [string, Record<string, unknown>]>, named: boolean) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) response.write(`${named ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  if (!named) response.write('data: [DONE]\n\n');
  response.end();
}

// ---------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------

interface AnthropicBlock {
  readonly type: string;
  readonly thinking?: string;
  readonly signature?: string;
  readonly [key: string]: unknown;
}

/** The real API's check: with thinking on, the assistant turn a tool result continues starts with the thinking it signed. */
function anthropicProblem(body: Record<string, unknown>): string | undefined {
  if ((body.thinking as { type?: string } | undefined)?.type !== 'enabled') return undefined;
  const messages = body.messages as Array<{ role: string; content: string | AnthropicBlock[] }>;
  const assistant = messages.findLastIndex((message) => message.role === 'assistant');
  const content = messages[assistant]?.content;
  if (assistant < 0 || typeof content === 'string' || !content?.some((block) => block.type === 'tool_use')) return undefined;
  const [first] = content;
  if (first?.type !== 'thinking') {
    return `messages.${assistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
  }
  const signed = /^sig-(\d+)-(.*)$/.exec(first.signature ?? '');
  if (signed === null || Buffer.from(signed[2] ?? '', 'base64url').toString() !== first.thinking) {
    return `messages.${assistant}.content.0: Invalid \`signature\` in \`thinking\` block`;
  }
  return undefined;
}

function anthropic(turn: ReasoningTurn | undefined): Sender | undefined {
  if (turn === undefined) return undefined;
  return (response, body, n) => {
    const problem = anthropicProblem(body);
    if (problem !== undefined) return fail(response, problem, true);
    const usage = { input_tokens: 10, output_tokens: 5 };
    const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: String(body.model), stop_sequence: null };
    const content: AnthropicBlock[] =
      'text' in turn
        ? [{ type: 'text', text: turn.text }]
        : [
            { type: 'thinking', thinking: turn.reasoning, signature: signatureOf(n, turn.reasoning) },
            { type: 'tool_use', id: `toolu_${n}`, name: turn.call.name, input: turn.call.input },
          ];
    const stopReason = 'text' in turn ? 'end_turn' : 'tool_use';
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...message, content, stop_reason: stopReason, usage }));
      return;
    }
    const events: Array<[string, Record<string, unknown>]> = [
      ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }],
    ];
    content.forEach((block, index) => {
      const start =
        block.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : block.type === 'tool_use'
            ? { ...block, input: {} }
            : { type: 'text', text: '' };
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
      const deltas =
        block.type === 'thinking'
          ? [
              // the thinking in two pieces, then its signature, as the API streams them
              { type: 'thinking_delta', thinking: String(block.thinking).slice(0, 9) },
              { type: 'thinking_delta', thinking: String(block.thinking).slice(9) },
              { type: 'signature_delta', signature: block.signature },
            ]
          : block.type === 'tool_use'
            ? [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }]
            : [{ type: 'text_delta', text: block.text }];
      for (const delta of deltas) events.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
      events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    });
    events.push([
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
    ]);
    events.push(['message_stop', { type: 'message_stop' }]);
    sse(response, events, true);
  };
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

/** The real API's check: with `store`, a function call sent back by reference needs its reasoning item too. */
function responsesProblem(body: Record<string, unknown>): string | undefined {
  if (body.store === false) return undefined;
  const input = body.input as Array<{ type?: string; id?: string }>;
  const references = new Set(input.filter((item) => item.type === 'item_reference').map((item) => item.id));
  for (const id of references) {
    const reasoning = id?.startsWith('fc_') === true ? `rs_${id.slice(3)}` : undefined;
    if (reasoning !== undefined && !references.has(reasoning)) {
      return `Item '${id}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning}'.`;
    }
  }
  return undefined;
}

function responses(turn: ReasoningTurn | undefined): Sender | undefined {
  if (turn === undefined) return undefined;
  return (response, body, n) => {
    const problem = responsesProblem(body);
    if (problem !== undefined) return fail(response, problem);
    const reasoning = 'text' in turn ? undefined : { type: 'reasoning', id: `rs_${n}`, encrypted_content: null };
    const summary = 'text' in turn ? [] : [{ type: 'summary_text', text: turn.reasoning }];
    const output: Array<Record<string, unknown>> =
      'text' in turn
        ? [
            {
              type: 'message',
              id: `msg_${n}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: turn.text, annotations: [] }],
            },
          ]
        : [
            { ...reasoning, summary },
            {
              type: 'function_call',
              id: `fc_${n}`,
              call_id: `call_${n}`,
              name: turn.call.name,
              arguments: JSON.stringify(turn.call.input),
              status: 'completed',
            },
          ];
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 15,
    };
    const completed = {
      id: `resp_${n}`,
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: String(body.model),
      output,
      usage,
      incomplete_details: null,
    };
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completed));
      return;
    }
    const events: Array<[string, Record<string, unknown>]> = [
      ['response.created', { type: 'response.created', response: { ...completed, status: 'in_progress', output: [], usage: null } }],
    ];
    output.forEach((item, index) => {
      if (item.type === 'reasoning') {
        const id = String(item.id);
        const text = String(summary[0]?.text);
        events.push(['response.output_item.added', { type: 'response.output_item.added', output_index: index, item: reasoning ?? {} }]);
        events.push(['', { type: 'response.reasoning_summary_part.added', item_id: id, output_index: index, summary_index: 0 }]);
        for (const delta of [text.slice(0, 9), text.slice(9)]) {
          events.push(['', { type: 'response.reasoning_summary_text.delta', item_id: id, output_index: index, summary_index: 0, delta }]);
        }
        events.push(['', { type: 'response.reasoning_summary_part.done', item_id: id, output_index: index, summary_index: 0 }]);
      } else if (item.type === 'function_call') {
        events.push([
          '',
          { type: 'response.output_item.added', output_index: index, item: { ...item, arguments: '', status: 'in_progress' } },
        ]);
        events.push([
          '',
          { type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: String(item.arguments) },
        ]);
      } else {
        const id = String(item.id);
        events.push([
          '',
          { type: 'response.output_item.added', output_index: index, item: { ...item, content: [], status: 'in_progress' } },
        ]);
        events.push([
          '',
          {
            type: 'response.output_text.delta',
            item_id: id,
            output_index: index,
            content_index: 0,
            delta: 'text' in turn ? turn.text : '',
          },
        ]);
      }
      events.push(['', { type: 'response.output_item.done', output_index: index, item }]);
    });
    events.push(['', { type: 'response.completed', response: completed }]);
    sse(response, events, false);
  };
}
