import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ModelMessage, Tool, ToolSet } from 'ai';

/**
 * The mark of a tool whose annotations the app trusts (`trustToolAnnotations`):
 * a symbol, so no server's data (JSON) can carry it. Its value reads a run's
 * listings ({@link ListingsReader}): the code that keeps trusted tools at
 * their strictest listing comes with the tools that need it, and an app that
 * trusts no tool's annotations never loads it.
 */
export const TRUSTED = Symbol.for('ai-interventions.trusted-annotations');

/** A trusted tool listed with other annotations than earlier in the conversation, and how (`readOnlyHint false -> true`). */
export interface ListingChange {
  readonly toolName: string;
  readonly how: string;
}

/**
 * What a run knows of its tools' listings, worked out once, at its first
 * tool decision: the tools handlers see, the label its first decided call
 * carries, and the changes to report (see `readToolListings`).
 */
export interface ToolListings {
  /** The tools handlers see (`event.tool`, `event.tools`): the run's, with each changed trusted tool at its strictest. */
  readonly tools: ToolSet | undefined;
  /** The trusted tools whose annotations changed since an earlier listing. */
  readonly changes: readonly ListingChange[];
  /** The label for the run's first decided call (once; `undefined` after, or when the run has no trusted tool). */
  takeLabel(): SharedV4ProviderMetadata | undefined;
}

/** Reads the listings of a run's tools (some of them trusted) from its input history. */
export type ListingsReader = (tools: ToolSet, history: readonly ModelMessage[]) => ToolListings;

/** Whether the app declared `tool`'s annotations trusted (`trustToolAnnotations`). */
export function hasTrustedAnnotations(tool: Tool | undefined): boolean {
  const mark: unknown = tool !== null && typeof tool === 'object' ? (tool as unknown as Record<symbol, unknown>)[TRUSTED] : undefined;
  // `true`: the mark of a copy of the library from before the mark carried its reader
  return mark === true || typeof mark === 'function';
}

/** The listings of a run's tools: read by the reader a trusted tool carries, or, when none is trusted, the tools as they are. */
export function toolListingsOf(tools: ToolSet | undefined, history: readonly ModelMessage[]): ToolListings {
  for (const name of Object.keys(tools ?? {})) {
    const read: unknown = (tools?.[name] as unknown as Record<symbol, unknown> | undefined)?.[TRUSTED];
    if (typeof read === 'function') return (read as ListingsReader)(tools as ToolSet, history);
  }
  return { tools, changes: [], takeLabel: () => undefined };
}
