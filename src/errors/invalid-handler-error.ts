import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidHandlerError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A handler could not be registered: it has no `name`, a second handler has
 * the same `name`, or one of its settings (`onError`, `timeoutMs`, `mode`) is
 * not valid. `code` tells which (`'duplicate-handler'` or `'invalid-handler'`).
 *
 * @example
 * ```ts
 * try {
 *   interventions.use(new ToolGuard(['delete_file'])); // 'tool-guard' again
 * } catch (error) {
 *   if (InvalidHandlerError.isInstance(error)) console.error(error.handlerName);
 * }
 * ```
 */
export class InvalidHandlerError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler at fault (`undefined` when it has none). */
  readonly handlerName: string | undefined;

  constructor({
    handlerName,
    message,
    code = 'invalid-handler',
  }: {
    handlerName: string | undefined;
    message: string;
    code?: 'invalid-handler' | 'duplicate-handler';
  }) {
    super({ name, code, message });
    this.handlerName = handlerName;
  }

  static override isInstance(error: unknown): error is InvalidHandlerError {
    return InterventionsError.hasMarker(error, marker);
  }
}
