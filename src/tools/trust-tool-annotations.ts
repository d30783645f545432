import type { Tool, ToolSet } from 'ai';
import { withProperties } from '../util/with-properties.ts';
import { readToolListings } from './read-tool-listings.ts';
import { hasTrustedAnnotations, TRUSTED } from './trusted-annotations.ts';

/**
 * Declares that the app trusts what these tools say about themselves (their
 * MCP annotations, `metadata.annotations`): the tools back, each marked, so
 * that annotation selectors (`{ annotations: { readOnlyHint: true } }`) in
 * every policy and scope of the library read their hints as declared.
 *
 * Annotations are claims a server makes about its own tools. By the MCP
 * specification they are untrusted unless they come from a trusted server,
 * and so they are here: a tool that was not passed through
 * `trustToolAnnotations` is read as if it declared nothing (the
 * specification's defaults: possibly destructive, open-world, not read-only,
 * not idempotent), which is the strictest reading. A server's annotations can
 * then make a policy stricter, never looser: its fetcher stays an untrusted
 * source however closed-world it says it is, and its `wipe_disk` is not
 * allowed by an "allow read-only" rule because it says `readOnlyHint: true`.
 *
 * Pass only the tools of servers you control or vouch for (and your own
 * tools, when you give them annotations). The mark is on each returned tool
 * object (a symbol-keyed property, kept by the library's own wrapping and by
 * object spread), never in the tool's data; the input is not changed.
 *
 * @example
 * ```ts
 * import { createMCPClient } from '@ai-sdk/mcp';
 * import { trustToolAnnotations } from 'ai-interventions';
 *
 * const ours = await createMCPClient({ transport: { type: 'http', url: 'https://mcp.internal.example/notes' } });
 * const theirs = await createMCPClient({ transport: { type: 'http', url: 'https://mcp.vendor.example' } });
 * const tools = {
 *   ...trustToolAnnotations(await ours.tools()), // our server: its readOnlyHint / openWorldHint count
 *   ...(await theirs.tools()), // a third party: its annotations only ever make a policy stricter
 * };
 * ```
 */
export function trustToolAnnotations<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
  const trusted: Record<string, Tool> = {};
  for (const toolName of Object.keys(tools)) {
    // defineProperty: a tool named `__proto__` stays a tool, never the copy's prototype
    Object.defineProperty(trusted, toolName, {
      value: marked(tools[toolName] as Tool),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return trusted as TOOLS;
}

/** `tool` with the mark: every other own property (getters included) and the prototype kept. */
function marked(tool: Tool): Tool {
  // enumerable, so that a spread copy of the tool keeps it; the mark carries what reads the listings of trusted tools
  return hasTrustedAnnotations(tool) ? tool : withProperties(tool, { [TRUSTED]: readToolListings });
}
