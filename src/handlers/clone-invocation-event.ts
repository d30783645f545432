import type { BeforeInvocationEvent } from '../actions/intervention-events.ts';
import { copyData } from '../data/copy-data.ts';

/** The draft of a `beforeInvocation` event (as `drafts.ts` makes the others): its transformable fields copied. */
export function cloneInvocationEvent(event: BeforeInvocationEvent): BeforeInvocationEvent {
  return {
    ...event,
    messages: copyData(event.messages),
    instructions: copyData(event.instructions),
    tools: { ...event.tools },
  };
}
