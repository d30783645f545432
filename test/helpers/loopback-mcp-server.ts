import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A tool handler that records its call (`<name> <arguments as JSON>`) and answers `output` as text. */
export type Reply = (
  name: string,
  output: string | ((args: Record<string, unknown>) => string),
) => (args: Record<string, unknown>) => Promise<{ content: Array<{ type: 'text'; text: string }> }>;

/**
 * A real MCP server (`@modelcontextprotocol/sdk`) over Streamable HTTP on
 * 127.0.0.1, its tools registered by `register`; every call it serves is
 * recorded in `called`. Connect with `createMCPClient({ transport: { type:
 * 'http', url } })` from `@ai-sdk/mcp`.
 */
export async function startLoopbackMcpServer(
  name: string,
  register: (mcp: McpServer, reply: Reply) => void,
): Promise<{ readonly url: string; readonly called: string[]; readonly mcp: McpServer; readonly close: () => Promise<void> }> {
  const called: string[] = [];
  const mcp = new McpServer({ name, version: '1.0.0' });
  const reply: Reply = (toolName, output) => async (args) => {
    called.push(`${toolName} ${JSON.stringify(args)}`);
    return { content: [{ type: 'text', text: typeof output === 'string' ? output : output(args) }] };
  };
  register(mcp, reply);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
  await mcp.connect(transport);
  const http: Server = createServer((request, response) => void transport.handleRequest(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    called,
    mcp,
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
