import type { Tool } from 'ai';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';

/** Whether `redactToolError` has anything to do for this runtime (its handler lists know whether a handler redacts errors). */
export function redactsToolErrors(snapshot: {
  readonly redactors: readonly unknown[];
  readonly handlers: { readonly redactsErrors: boolean };
}): boolean {
  return snapshot.redactors.length > 0 || snapshot.handlers.redactsErrors;
}

/** Whether a registered handler redacts tool errors (for `toolName`, or for some tool). */
export function redactsErrors(registered: RegisteredHandler, toolName: string | undefined, tool: Tool | undefined): boolean {
  if (registered.mode === 'shadow') return false;
  if (toolName !== undefined && registered.inScope?.(toolName, tool) === false) return false;
  return typeof (registered.handler as { readonly redactToolError?: unknown }).redactToolError === 'function';
}
