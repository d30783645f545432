import type { Instructions, ModelMessage, Tool, ToolResultPart } from 'ai';
import type { BeforeToolCallEvent } from '../actions/intervention-events.ts';
import { isInjectedText } from '../messages/injected-text.ts';
import { pairToolCalls } from '../messages/pair-tool-calls.ts';
import { getOwn } from '../util/get-own.ts';

/** One untrusted result in the conversation: the source tool, and the text it brought in. */
export interface UntrustedResult {
  readonly toolName: string;
  readonly text: string;
}

/** An argument whose value came from untrusted content only. */
export interface ControlledArgument {
  readonly argument: string;
  readonly value: string;
  readonly source: string;
}

/**
 * The results of source tools in the messages the model saw when it made the
 * call (tool messages, and provider-executed results in assistant messages).
 * A call a person approved, evaluated again on resume, is already in the
 * history: only what came before its assistant message counts (the results
 * of the calls made beside it arrived after the model chose it). With a
 * provider that repeats call ids, its last occurrence is taken (the pending
 * one, and the longest history). Any other call is new: every message counts.
 *
 * A call that was denied or refused brought no content: its result is the
 * denial (`execution-denied`, or, after a chat UI's round trip, an
 * `error-text` holding the refusal's own reason, which `convertToModelMessages`
 * makes of a denied call's `output-denied` part). A result that says anything
 * else counts, refused or not.
 */
export function untrustedResults(
  event: BeforeToolCallEvent,
  isUntrusted: (toolName: string, tool: Tool | undefined) => boolean,
): UntrustedResult[] {
  const found: UntrustedResult[] = [];
  const { messages } = event;
  const made = event.approved ? messages.findLastIndex((message) => holdsCall(message, event.toolCall.toolCallId)) : -1;
  const seen = made < 0 ? messages : messages.slice(0, made);
  const denials = deniedResults(seen);
  for (const message of seen) {
    if ((message.role !== 'tool' && message.role !== 'assistant') || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.output.type === 'execution-denied' || denials.has(part)) continue;
      if (!isUntrusted(part.toolName, getOwn(event.tools, part.toolName))) continue;
      found.push({ toolName: part.toolName, text: normalize(leafText(part.output).join('\n')) });
    }
  }
  return found;
}

/** The SDK's text for a denied call whose refusal gave no reason (`convertToModelMessages`). */
const DENIED_WITHOUT_REASON = 'Tool call execution denied.';

/** The results of refused calls that hold only the refusal (a chat UI's `output-denied`, converted back). */
function deniedResults(messages: readonly ModelMessage[]): ReadonlySet<ToolResultPart> {
  const denials = new Set<ToolResultPart>();
  for (const call of pairToolCalls(messages)) {
    const output = call.result?.output;
    if (!call.refused || output?.type !== 'error-text') continue;
    if (output.value === (call.refusal ?? DENIED_WITHOUT_REASON)) denials.add(call.result as ToolResultPart);
  }
  return denials;
}

/** Whether `message` is the assistant message that made the call `toolCallId`. */
function holdsCall(message: ModelMessage, toolCallId: string): boolean {
  return (
    message.role === 'assistant' &&
    typeof message.content !== 'string' &&
    message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId)
  );
}

/** The checked arguments of the call whose values appear in untrusted content and not in the user's (or system) messages. */
export function attackerControlled(
  event: BeforeToolCallEvent,
  checked: readonly string[],
  untrusted: readonly UntrustedResult[],
): ControlledArgument[] {
  const input = event.toolCall.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  const trustedText = normalize([...instructionText(event.instructions), ...event.messages.flatMap(ownWords)].join('\n'));
  const controlled: ControlledArgument[] = [];
  for (const argument of checked) {
    const value = getOwn(input as Readonly<Record<string, unknown>>, argument);
    for (const leaf of leafText(value)) {
      const needle = normalize(leaf).trim();
      if (needle === '') continue;
      const source = untrusted.find(({ text }) => containsWord(text, needle));
      if (source !== undefined && !containsWord(trustedText, needle)) {
        controlled.push({ argument, value: leaf, source: source.toolName });
      }
    }
  }
  return controlled;
}

/**
 * The text of the user's and the system's own messages (what the person, or
 * the app, asked). A user message's text that the library injected (a guide's
 * feedback, steering, a follow-up) is not the user's words, though it is sent
 * as a user message: it may quote anything, untrusted content included.
 */
function ownWords(message: ModelMessage): string[] {
  if (message.role === 'system') return [message.content];
  if (message.role !== 'user') return [];
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((part) => (part.type === 'text' && !isInjectedText(part) ? [part.text] : []));
}

/** The text of the app's instructions (the system prompt). */
function instructionText(instructions: Instructions | undefined): string[] {
  if (instructions === undefined) return [];
  if (typeof instructions === 'string') return [instructions];
  return (Array.isArray(instructions) ? instructions : [instructions]).map((message) => message.content);
}

/** Every string and number in a value (a tool output, an argument), depth first. */
function leafText(value: unknown, seen = new Set<object>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'bigint') return [String(value)];
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.flatMap((child) => leafText(child, seen));
}

/** Lower case, thousands separators removed (`1,000` reads as `1000`). */
function normalize(text: string): string {
  return text.toLowerCase().replaceAll(/(?<=\d),(?=\d{3}(?!\d))/g, '');
}

/** Whether `needle` occurs in `text` not inside a longer word or number. */
function containsWord(text: string, needle: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at < 0) return false;
    const before = text[at - 1];
    const after = text[at + needle.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = at + 1;
  }
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_]/u.test(char);
}
