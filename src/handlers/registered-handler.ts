import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import type {
  HandlerMode,
  InterventionHandlerLike,
  OnError,
} from './intervention-handler.ts';
import { LIFECYCLES, type Lifecycle } from './lifecycle.ts';

/** A handler with its settings validated and resolved to their defaults. */
export interface RegisteredHandler {
  readonly handler: InterventionHandlerLike;
  readonly name: string;
  readonly onError: OnError;
  readonly timeoutMs: number | undefined;
  readonly mode: HandlerMode;
  /** The tools its tool lifecycle methods apply to (`undefined`: all). */
  readonly tools: ReadonlySet<string> | undefined;
}

const ON_ERROR: readonly OnError[] = ['throw', 'proceed', 'deny'];
const MODES: readonly HandlerMode[] = ['enforce', 'shadow'];

/** Validates a handler's shape and settings; throws `InvalidHandlerError`. */
export function registerHandler(handler: unknown): RegisteredHandler {
  if (handler == null || typeof handler !== 'object') {
    throw new InvalidHandlerError({
      handlerName: undefined,
      message: `An intervention handler must be an object, received ${handler === null ? 'null' : typeof handler}.`,
    });
  }
  const { name, onError = 'throw', timeoutMs, mode = 'enforce', tools } =
    handler as Partial<InterventionHandlerLike>;

  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidHandlerError({
      handlerName: undefined,
      message: 'An intervention handler must have a non-empty string `name`.',
    });
  }
  if (!ON_ERROR.includes(onError)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `Intervention handler "${name}" has an invalid onError ${JSON.stringify(onError)}; expected 'throw', 'proceed' or 'deny'.`,
    });
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))
  ) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `Intervention handler "${name}" has an invalid timeoutMs ${String(timeoutMs)}; expected a positive number of milliseconds.`,
    });
  }
  if (!MODES.includes(mode)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `Intervention handler "${name}" has an invalid mode ${JSON.stringify(mode)}; expected 'enforce' or 'shadow'.`,
    });
  }
  if (
    tools !== undefined &&
    !(Array.isArray(tools) && tools.every((tool: unknown) => typeof tool === 'string'))
  ) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `Intervention handler "${name}" has an invalid tools list; expected an array of tool names.`,
    });
  }
  const methods = handler as Record<string, unknown>;
  for (const lifecycle of LIFECYCLES) {
    const method = methods[lifecycle];
    if (method !== undefined && typeof method !== 'function') {
      throw new InvalidHandlerError({
        handlerName: name,
        message: `Intervention handler "${name}" has a ${lifecycle} that is not a function.`,
      });
    }
  }

  return {
    handler: handler as InterventionHandlerLike,
    name,
    onError,
    timeoutMs,
    mode,
    tools: tools === undefined ? undefined : new Set(tools),
  };
}

/** Whether the handler defines the lifecycle method. */
export function handles(
  registered: RegisteredHandler,
  lifecycle: Lifecycle,
): boolean {
  return typeof registered.handler[lifecycle] === 'function';
}
