import { tool } from 'ai';
import { z } from 'zod';

/** One tool `t` (input `{ tag }`) that answers `ran <tag>`; `ran` records every tag it ran, in order. */
export function recordingTools() {
  const ran: string[] = [];
  const tools = {
    t: tool({
      inputSchema: z.object({ tag: z.string() }),
      execute: async ({ tag }) => {
        ran.push(tag);
        return `ran ${tag}`;
      },
    }),
  };
  return { ran, tools };
}
