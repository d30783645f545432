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
