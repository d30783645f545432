/**
 * Makes `error` read as `text` wherever the SDK turns it into text (it uses
 * `getErrorMessage`, i.e. `toString()` for an `Error`): the tool result the
 * model reads, the step's content, the response messages and the UI stream
 * then all carry the same text. For errors the SDK creates and reports
 * itself (an invalid or unknown tool call), where a replacement object
 * cannot be handed back.
 */
export function rewriteErrorText(error: unknown, text: string): void {
  if (!(error instanceof Error)) return;
  Object.defineProperty(error, 'toString', { value: () => text, configurable: true, writable: true });
}
