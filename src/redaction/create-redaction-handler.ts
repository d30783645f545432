import type { Context } from '@ai-sdk/provider-utils';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { AfterToolCallEvent, BeforeToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import type { AfterToolCallAction, BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { knownOptions } from '../util/known-options.ts';
import { createRedactor, type RedactionRule, type Redactor } from './create-redactor.ts';
import { redactData } from './redact-data.ts';
import type { ToolErrorDetails, ToolErrorRedacting } from './redact-tool-error.ts';

/**
 * What `onRedacted` receives each time a redaction handler changed a tool
 * call's arguments or result: the value before (`original`, never mutated)
 * and after (`redacted`, what the tool or the model gets). Keep `original`
 * where your app needs the full value (your UI, your audit log): the run
 * itself only ever carries `redacted`.
 *
 * @example
 * ```ts
 * const originals = new Map<string, unknown>();
 * const pii = redactPii({
 *   onRedacted: ({ toolCall, where, original }: RedactedToolValue) => {
 *     if (where === 'result') originals.set(toolCall.toolCallId, original);
 *   },
 * });
 * ```
 */
export interface RedactedToolValue {
  /** The tool call whose arguments or result were redacted. */
  readonly toolCall: ToolCallInfo;
  /**
   * `'arguments'`: before the tool ran; `'result'`: before the model reads
   * it; `'error'`: the error the tool threw, before the model, the response
   * messages and the UI read its text.
   */
  readonly where: 'arguments' | 'result' | 'error';
  /** The value as it was (the same object, untouched). */
  readonly original: unknown;
  /** The redacted copy that replaces it. */
  readonly redacted: unknown;
  /** The run the call belongs to (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The run's trusted `runtimeContext` (e.g. to file the original under a user). */
  readonly runtimeContext: Context;
}

/**
 * A handler that redacts tool arguments (`beforeToolCall`), tool results
 * (`afterToolCall`) and the errors tools throw (`redactToolError`), plus the
 * {@link Redactor} with the same rules for the model's own text. Register
 * both: the handler in `handlers`, the redactor in `redactors`.
 *
 * @example
 * ```ts
 * const secrets: RedactionHandler = redactSecrets();
 * const interventions = createInterventions({ handlers: [secrets], redactors: [secrets.redactor] });
 * ```
 */
export interface RedactionHandler extends InterventionHandlerLike, ToolErrorRedacting {
  /** Redacts the model's streamed and final text with the same rules. */
  readonly redactor: Redactor;
  beforeToolCall(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}

/**
 * What {@link createRedactionHandler} takes.
 *
 * @inline
 */
interface RedactionHandlerOptions {
  readonly name: string;
  readonly rules: readonly RedactionRule[];
  readonly lookahead?: number;
  readonly sensitiveKeys?: RegExp | undefined;
  readonly onRedacted?: ((value: RedactedToolValue) => void | PromiseLike<void>) | undefined;
}

const REDACTION_HANDLER_OPTIONS = knownOptions<RedactionHandlerOptions>({
  name: true,
  rules: true,
  lookahead: true,
  sensitiveKeys: true,
  onRedacted: true,
});

/**
 * Builds a {@link RedactionHandler} from your own rules: the engine behind
 * {@link redactPii} and {@link redactSecrets}. Rules apply to every string in
 * tool arguments, results and thrown errors (object keys included) and to the
 * model's text.
 *
 * @param options The handler's name, its rules and their default lookahead (as
 * {@link createRedactor}), sensitive keys, and `onRedacted`.
 * @param options.sensitiveKeys Object keys whose string values are replaced
 * whole (`'[REDACTED]'`), whatever they contain, e.g. `/password$/i`.
 *
 * @example
 * ```ts
 * const employeeIds = createRedactionHandler({
 *   name: 'employee-ids',
 *   rules: [{ pattern: /\bEMP-\d{6}\b/, replacement: '[EMPLOYEE]' }],
 *   lookahead: 16,
 * });
 * const interventions = createInterventions({ handlers: [employeeIds], redactors: [employeeIds.redactor] });
 * ```
 */
export function createRedactionHandler(options: RedactionHandlerOptions): RedactionHandler {
  REDACTION_HANDLER_OPTIONS.check(options, `createRedactionHandler "${options.name}"`);
  const { name, rules, lookahead = 64, sensitiveKeys, onRedacted } = options;
  const redactor = createRedactor({ name, rules, lookahead });
  // a test on a `g` or `y` regex is stateful: use a copy without those flags
  const keys = sensitiveKeys === undefined ? undefined : new RegExp(sensitiveKeys.source, sensitiveKeys.flags.replace(/[gy]/g, ''));

  /** `outcome` for a redacted value, after telling `onRedacted` (if any). */
  const report = <OUTCOME>(
    outcome: OUTCOME,
    value: Omit<RedactedToolValue, 'runId' | 'runtimeContext'>,
    { runId, runtimeContext }: Pick<RedactedToolValue, 'runId' | 'runtimeContext'>,
  ): Awaitable<OUTCOME> => {
    if (onRedacted === undefined) return outcome;
    return Promise.resolve(onRedacted({ ...value, runId, runtimeContext })).then(() => outcome);
  };

  return {
    name,
    redactor,
    beforeToolCall(event) {
      const original = event.toolCall.input;
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return InterventionActions.proceed();
      const action = InterventionActions.transform<BeforeToolCallEvent>((draft) => {
        draft.toolCall.input = redacted;
      });
      return report(action, { toolCall: event.toolCall, where: 'arguments', original, redacted }, event);
    },
    afterToolCall(event) {
      const original = event.result;
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return InterventionActions.proceed();
      const action = InterventionActions.transform<AfterToolCallEvent>((draft) => {
        draft.result = redacted;
      });
      return report(action, { toolCall: event.toolCall, where: 'result', original, redacted }, event);
    },
    redactToolError(original, details: ToolErrorDetails) {
      const redacted = redactData(original, redactor.redact, keys);
      if (redacted === original) return original;
      return report(redacted, { toolCall: details.toolCall, where: 'error', original, redacted }, details);
    },
  };
}
