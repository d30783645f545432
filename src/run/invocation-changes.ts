import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage, Tool } from 'ai';
import type { BeforeInvocationEvent } from '../actions/intervention-events.ts';

/** What the run's `beforeInvocation` handlers changed. */
export interface InvocationChanges {
  readonly messages: ModelMessage[] | undefined;
  readonly instructions: BeforeInvocationEvent['instructions'] | undefined;
  readonly instructionsChanged: boolean;
  readonly removedTools: ReadonlySet<string>;
  readonly replacedTools: ReadonlyMap<string, Tool>;
}

/**
 * The provider request with what `beforeInvocation` changed in the tools
 * (descriptions of replaced tools), or the request itself.
 */
export function withInvocationChanges(
  invocation: InvocationChanges | undefined,
  request: LanguageModelV4CallOptions,
): LanguageModelV4CallOptions {
  const replaced = invocation?.replacedTools;
  if (replaced === undefined || replaced.size === 0 || request.tools === undefined) return request;
  let changed = false;
  const tools = request.tools.map((definition) => {
    if (definition.type !== 'function') return definition;
    const description = replaced.get(definition.name)?.description;
    if (typeof description !== 'string' || description === definition.description) return definition;
    changed = true;
    return { ...definition, description };
  });
  return changed ? { ...request, tools } : request;
}
