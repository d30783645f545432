import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { usage } from './scripted-model.ts';

/**
 * A streamed step with two calls of `echo`: c1 (`{ text: 'secret-1' }`, its
 * arguments in two deltas), then c2 (`{ text: 'two' }`), then the finish.
 */
export const TWO_CALL_STEP: readonly LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
  { type: 'tool-input-delta', id: 'c1', delta: '{"text":"sec' },
  { type: 'tool-input-delta', id: 'c1', delta: 'ret-1"}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"secret-1"}' },
  { type: 'tool-input-start', id: 'c2', toolName: 'echo' },
  { type: 'tool-input-delta', id: 'c2', delta: '{"text":"two"}' },
  { type: 'tool-input-end', id: 'c2' },
  { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: '{"text":"two"}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

/** A streamed step answering "done". */
export const DONE_STEP: readonly LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'done' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];
