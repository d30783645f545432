/**
 * What the tools actually did, in memory, per chat: the example's proof that
 * a denied, guided or refused call never ran. `GET /api/log?chatId=…` serves
 * it (example-only: a real app would write an audit log).
 *
 * Kept on `globalThis` so every route of the server process (and `next dev`
 * reloads) share one log.
 */
export interface ToolExecution {
  readonly chatId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly at: string;
}

const KEY = Symbol.for('ai-interventions-example.activity-log');
const MAX_ENTRIES = 1_000;

function entries(): ToolExecution[] {
  const store = globalThis as typeof globalThis & { [KEY]?: ToolExecution[] };
  return (store[KEY] ??= []);
}

export function recordExecution(chatId: string, tool: string, input: unknown): void {
  const log = entries();
  log.push({ chatId, tool, input, at: new Date().toISOString() });
  if (log.length > MAX_ENTRIES) log.splice(0, log.length - MAX_ENTRIES);
}

export function executions(chatId?: string): ToolExecution[] {
  return entries().filter((entry) => chatId === undefined || entry.chatId === chatId);
}
