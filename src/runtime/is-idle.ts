import type { CallOptions } from './compose-run-options.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/** Whether nothing is registered: a call then goes straight to the SDK. */
export function isIdle({ handlers, hooks, redactors }: RuntimeSnapshot): boolean {
  if (handlers.all.length > 0 || redactors.length > 0) return false;
  for (const list of Object.values(hooks)) if (list.length > 0) return false;
  return true;
}

/**
 * Whether a call needs a run: something is registered, it uses loop
 * options, or it resumes approvals (checked against the ledger).
 */
export function needsRun(snapshot: RuntimeSnapshot, options: CallOptions): boolean {
  if (!isIdle(snapshot)) return true;
  if (options.steering !== undefined || options.followUp !== undefined || options.maxSteps !== undefined) return true;
  const last = (options.messages ?? (Array.isArray(options.prompt) ? options.prompt : undefined))?.at(-1);
  return last?.role === 'tool' && last.content.some((part) => part.type === 'tool-approval-response');
}
