import type { Context } from '@ai-sdk/provider-utils';
import type { ToolSet } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { getOwn } from '../util/get-own.ts';
import type { Redactor } from './create-redactor.ts';
import { redactData } from './redact-data.ts';
import { redactsErrors } from './redacts-tool-errors.ts';

/**
 * What a handler's `redactToolError` is told about the failed call.
 *
 * @example
 * ```ts
 * const audit = ({ toolCall, runId }: ToolErrorDetails) => log.warn(`redacted the error of ${toolCall.toolName} in ${runId}`);
 * ```
 */
export interface ToolErrorDetails {
  readonly toolCall: ToolCallInfo;
  readonly runId: string | undefined;
  readonly runtimeContext: Context;
}

/**
 * A handler that also redacts the errors tools throw: every redaction
 * handler ({@link redactPii}, {@link redactSecrets},
 * {@link createRedactionHandler}) is one. The error's text reaches the
 * model's next request, the response messages and the UI stream, so it is
 * redacted before the SDK turns it into the call's error result.
 *
 * @example
 * ```ts
 * class ScrubAccountNumbers extends InterventionHandler implements ToolErrorRedacting {
 *   readonly name = 'scrub-account-numbers';
 *   redactToolError(error: unknown) {
 *     return error instanceof Error ? new Error(error.message.replace(/\d{8,}/g, '[ACCOUNT]')) : error;
 *   }
 * }
 * ```
 */
export interface ToolErrorRedacting {
  /** `error`, redacted (the same value when nothing matched). */
  redactToolError(error: unknown, details: ToolErrorDetails): Awaitable<unknown>;
}

/** What {@link redactToolError} reads from the runtime. */
export interface ToolErrorScope {
  readonly snapshot: {
    readonly redactors: readonly Redactor[];
    readonly handlers: { readonly all: readonly RegisteredHandler[] };
  };
  readonly runId: string | undefined;
  readonly runtimeContext: Context;
  /** The run's tools, for handlers scoped by annotations. */
  readonly tools?: ToolSet | undefined;
}

/** The error that replaces one a redacting handler failed on: fail closed. */
export const WITHHELD_TOOL_ERROR = 'The tool failed; its error message was withheld because it could not be redacted.';

/**
 * The error a tool threw (or a hook put in its place), as the model, the
 * response messages and the UI may read it: redacted by every enforced
 * handler that redacts tool errors ({@link ToolErrorRedacting}, in
 * registration order, scoped handlers only for their tools), then by the
 * runtime's `redactors`. The same value when nothing matched; an error of
 * the same class otherwise. A redacting handler that throws makes it a plain
 * error saying the message was withheld.
 */
export async function redactToolError(scope: ToolErrorScope, toolCall: ToolCallInfo, error: unknown): Promise<unknown> {
  const { redactors, handlers } = scope.snapshot;
  let redacted = error;
  const details: ToolErrorDetails = { toolCall, runId: scope.runId, runtimeContext: scope.runtimeContext };
  for (const registered of handlers.all) {
    if (!redactsErrors(registered, toolCall.toolName, getOwn(scope.tools, toolCall.toolName))) continue;
    try {
      redacted = await (registered.handler as unknown as ToolErrorRedacting).redactToolError(redacted, details);
    } catch {
      return new Error(WITHHELD_TOOL_ERROR);
    }
  }
  if (redactors.length === 0) return redacted;
  return redactData(redacted, (text) => redactors.reduce((value, redactor) => redactor.redact(value), text));
}
