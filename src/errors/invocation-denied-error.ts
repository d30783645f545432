import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvocationDeniedError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A `beforeInvocation` handler denied the whole call: no model was called and
 * no tool ran.
 *
 * @example
 * ```ts
 * export async function POST(request: Request): Promise<Response> {
 *   try {
 *     const { text } = await interventions.generateText({ model, prompt: await request.text() });
 *     return new Response(text);
 *   } catch (error) {
 *     if (InvocationDeniedError.isInstance(error)) return new Response(error.reason, { status: 403 });
 *     throw error;
 *   }
 * }
 * ```
 */
export class InvocationDeniedError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler that denied the call. */
  readonly handlerName: string;
  /** The reason it gave. */
  readonly reason: string;

  constructor({
    handlerName,
    reason,
  }: {
    handlerName: string;
    reason: string;
  }) {
    super({
      name,
      code: 'invocation-denied',
      message: `The call was denied by intervention handler "${handlerName}": ${reason}`,
    });
    this.handlerName = handlerName;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is InvocationDeniedError {
    return InterventionsError.hasMarker(error, marker);
  }
}
