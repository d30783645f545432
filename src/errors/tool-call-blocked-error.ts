import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_ToolCallBlockedError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown from a guarded tool's `execute` (`guardTool`, `wrapTools` used
 * without the wrappers) when a handler denies or guides the call. The AI SDK
 * turns it into the tool's error result; its `toString()` is exactly the
 * wording the model reads.
 *
 * @example
 * ```ts
 * const { toolResults } = await generateText({ model, tools: guardTools(tools, [new ToolGuard(['delete_file'])]), prompt });
 * // the model read: The call to "delete_file" was blocked and was not executed. …
 * ```
 */
export class ToolCallBlockedError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  readonly toolName: string;
  readonly toolCallId: string;
  /** `'deny'` or `'guide'`. */
  readonly decision: 'deny' | 'guide';

  constructor({
    toolName,
    toolCallId,
    decision,
    message,
  }: {
    toolName: string;
    toolCallId: string;
    decision: 'deny' | 'guide';
    message: string;
  }) {
    super({ name, code: 'tool-call-blocked', message });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.decision = decision;
  }

  /** The model-facing text, without an error-name prefix. */
  override toString(): string {
    return this.message;
  }

  static override isInstance(error: unknown): error is ToolCallBlockedError {
    return InterventionsError.hasMarker(error, marker);
  }
}
