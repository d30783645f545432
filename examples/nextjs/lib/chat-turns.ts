/**
 * One request at a time per chat, in this process: a request that arrives
 * while another of the same chat is still running (its answer being saved)
 * waits for it, a few seconds at most. Two people answering at once, or an
 * answer sent the moment the last one ended, then read the conversation as
 * the other left it. (With several instances, the store's version check is
 * what catches a conflict: `ChatStore.save`.)
 */
const KEY = Symbol.for('ai-interventions-example.chat-turns');
const MAX_TURN_MS = 90_000;

function running(): Map<string, Promise<void>> {
  const store = globalThis as typeof globalThis & { [KEY]?: Map<string, Promise<void>> };
  return (store[KEY] ??= new Map());
}

/** Waits for the chat's running request, then takes the turn: call the result when done. `undefined`: still busy. */
export async function takeTurn(chatId: string, waitMs = 5_000): Promise<(() => void) | undefined> {
  const turns = running();
  const deadline = Date.now() + waitMs;
  for (let current = turns.get(chatId); current !== undefined; current = turns.get(chatId)) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await Promise.race([current, new Promise((resolve) => setTimeout(resolve, left))]);
  }
  let release = () => {};
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  turns.set(chatId, turn);
  const end = () => {
    clearTimeout(timer);
    if (turns.get(chatId) === turn) turns.delete(chatId);
    release();
  };
  // a request whose answer was never read (its end never came) holds the chat no longer than a request may run
  const timer = setTimeout(end, MAX_TURN_MS);
  timer.unref?.();
  return end;
}
