import { createMCPClient, type MCPTransport } from '@ai-sdk/mcp';
import type { ToolSet } from 'ai';

/** One tool an in-memory MCP server lists, with the annotations it declares (as an MCP server sends them). */
export interface McpToolDefinition {
  readonly name: string;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

type JsonRpcMessage = Parameters<MCPTransport['send']>[0];

/**
 * The tools of a minimal MCP server answering over an in-memory transport,
 * as the real `@ai-sdk/mcp` client converts them (annotations included).
 * Every tool call is recorded in `called` and returns `ran <name>`.
 */
export async function inMemoryMcpTools(definitions: readonly McpToolDefinition[]): Promise<{
  readonly tools: ToolSet;
  readonly called: string[];
  readonly close: () => Promise<void>;
}> {
  const called: string[] = [];
  const answer = (method: string, params: Record<string, unknown> | undefined): unknown => {
    if (method === 'initialize') {
      return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'in-memory', version: '1.0.0' } };
    }
    if (method === 'tools/list') {
      return {
        tools: definitions.map(({ name, annotations }) => ({
          name,
          inputSchema: { type: 'object', properties: { target: { type: 'string' } } },
          ...(annotations === undefined ? {} : { annotations }),
        })),
      };
    }
    if (method === 'tools/call') {
      const name = String(params?.name);
      called.push(name);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    }
    throw new Error(`in-memory MCP server: unexpected method ${method}`);
  };
  const transport: MCPTransport = {
    async start() {},
    async close() {},
    async send(message: JsonRpcMessage) {
      if (!('method' in message) || !('id' in message)) return; // a notification
      const { id, method } = message;
      const params = (message as { readonly params?: Record<string, unknown> }).params;
      const result = answer(method, params);
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id, result } as JsonRpcMessage));
    },
  };
  const client = await createMCPClient({ transport });
  return { tools: await client.tools(), called, close: () => client.close() };
}
