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
 * The wire format is the Next.js example's loopback server
 * (examples/nextjs/lib/openai-wire-server.ts): one encoder for the example and
 * the tests. Listens on 127.0.0.1 only, on a port the OS assigns. `close()`
 * drops open (keep-alive) connections and releases the port.
 */
import { type Endpoint, startOpenAIWireServer, type WireToolCall } from '../../examples/nextjs/lib/openai-wire-server.ts';

export type { Endpoint };

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
export function toolCall(id: string, name: string, args: Readonly<Record<string, unknown>> | string): ScriptedToolCall {
  return { id, name, arguments: args };
}

export async function startOpenAICompatibleServer({ script }: { script: readonly ScriptedTurn[] }): Promise<OpenAICompatibleServer> {
  const requests: RecordedRequest[] = [];
  const server = await startOpenAIWireServer({
    answer({ n, endpoint, path, body, headers }) {
      requests.push({ endpoint, path, body, headers });
      const turn = script[n];
      if (turn === undefined) {
        return { error: `openai-compatible-server: no turn scripted for request ${n + 1} (the script has ${script.length})` };
      }
      return { text: turn.text, calls: (turn.toolCalls ?? []).map(wireCall), usage: turn.usage ?? DEFAULT_USAGE };
    },
  });
  return { baseURL: server.baseURL, requests, close: () => server.close() };
}

function wireCall(call: ScriptedToolCall): WireToolCall {
  return {
    id: call.id,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  };
}
