import type { AfterModelCallEvent, BeforeModelCallEvent, BeforeToolCallEvent } from '../actions/intervention-events.ts';
import { copyData } from '../data/copy-data.ts';

/*
 * Drafts for the lifecycle points where a transform can still be discarded
 * (a later deny): the transformable fields are copied, the rest is shared.
 */

export function cloneToolCallEvent(event: BeforeToolCallEvent): BeforeToolCallEvent {
  return { ...event, toolCall: { ...event.toolCall, input: copyData(event.toolCall.input) } };
}

export function cloneModelCallEvent(event: BeforeModelCallEvent): BeforeModelCallEvent {
  return {
    ...event,
    messages: copyData(event.messages),
    instructions: copyData(event.instructions),
    activeTools: [...event.activeTools],
    settings: copyData(event.settings),
  };
}

export function cloneResponseEvent(event: AfterModelCallEvent): AfterModelCallEvent {
  return { ...event, response: { ...event.response, content: copyData(event.response.content) } };
}
