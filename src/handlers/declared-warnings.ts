import type { InterventionsWarning } from '../errors/interventions-warning.ts';
import { listsByObject } from '../util/lists-by-object.ts';

/** The warnings of the built-ins' handlers, by handler (made when the built-in was called, told when it is registered). */
const declared = listsByObject<InterventionsWarning>();

/**
 * Files what a built-in's options warn about (a deprecated option) for a
 * handler: the runtime it is registered with reports them, once per process
 * and key, and to its `onStatus` hooks. Returns the handler.
 */
export const declareWarnings = declared.file;

/** The warnings `declareWarnings` filed for a handler. */
export const declaredWarnings = declared.of;
