import { emitWarningOnce } from '../errors/emit-warning.ts';
import { InterventionsWarning } from '../errors/interventions-warning.ts';
import type { Run } from '../run/run.ts';
import { type ListingChange, type ToolListings, toolListingsOf } from '../tools/trusted-annotations.ts';

/**
 * The run's {@link ToolListings}, worked out at its first tool decision; the
 * changes are reported then (a typed warning, the `onStatus` hooks, a
 * decision record per tool), and the returned promise waits for that.
 */
export function toolListings(run: Run): ToolListings | Promise<ToolListings> {
  if (run.listings !== undefined) return run.listings;
  const listings = toolListingsOf(run.tools, run.input);
  run.listings = listings;
  return listings.changes.length === 0 ? listings : reportChanges(run, listings.changes).then(() => listings);
}

async function reportChanges(run: Run, changes: readonly ListingChange[]): Promise<void> {
  for (const { toolName, how } of changes) {
    const message = `"${toolName}" changed its annotations in this conversation (${how}); its strictest listing holds.`;
    const warning = new InterventionsWarning({ code: 'tool-annotations-changed', message });
    emitWarningOnce(warning);
    await run.status({ type: 'warning', code: warning.code, message });
    await run.record({
      handler: 'ai-interventions',
      lifecycle: 'beforeToolCall',
      action: 'proceed',
      warning: message,
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      toolName,
    });
  }
}
