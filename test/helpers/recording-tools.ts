import { tool } from 'ai';
import { z } from 'zod';
import { defineHandler, InterventionActions } from '../../src/index.ts';

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

/**
 * `wipe_disk` (`{ disk }`) and `lookup` (`{ q }`); `ran` records each call
 * that ran as `<tool> <argument>`, in order. `noWipes` denies every wipe
 * (and asks before wiping the `scratch` disk).
 */
export function wipeAndLookupTools() {
  const ran: string[] = [];
  const tools = {
    wipe_disk: tool({
      inputSchema: z.object({ disk: z.string() }),
      execute: async ({ disk }) => (ran.push(`wipe_disk ${disk}`), `wiped ${disk}`),
    }),
    lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => (ran.push(`lookup ${q}`), `found ${q}`) }),
  };
  return { ran, tools };
}

export const noWipes = defineHandler({
  name: 'no-wipes',
  beforeToolCall: ({ toolCall: call }) => {
    if (call.toolName !== 'wipe_disk') return InterventionActions.proceed();
    return (call.input as { disk: string }).disk === 'scratch'
      ? InterventionActions.confirm('Wipe the scratch disk?')
      : InterventionActions.deny('Wiping disks is not allowed');
  },
});
