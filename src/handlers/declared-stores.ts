import type { Store } from '../store/store.ts';
import { listsByObject } from '../util/lists-by-object.ts';

/** A store a built-in keeps a guarantee's state on, as its options gave it (or its default). */
export interface DeclaredStore {
  /** Which option it is: `store`, `remember.store`. */
  readonly option: string;
  readonly store: Store;
  /** What holds per instance only when the store is in one process's memory (for the warning). */
  readonly perInstance: string;
  /** Whether it holds approvals (`humanApproval`'s requests): shared, they are answered on any instance. */
  readonly approvals?: boolean;
}

/** The stores of the built-ins' handlers, by handler (their stores live in closures). */
const declared = listsByObject<DeclaredStore>();

/**
 * Files the stores a built-in keeps state on for a handler, so that the
 * runtime it is registered with can warn when some of its state is shared
 * by several instances and some is not. Returns the handler.
 */
export const declareStores = declared.file;

/** The stores `declareStores` filed for a handler. */
export const declaredStores = declared.of;
