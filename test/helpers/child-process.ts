/**
 * Tests with several server instances: each instance is a Node child
 * process running a TypeScript script from the sources (`node
 * --experimental-strip-types --conditions=ai-interventions-source`), and the
 * test talks to it in JSON lines over stdio, one message an object with a
 * `type`.
 *
 * In the test: `const child = spawnChild(url, { args })`, then
 * `child.send({ type: 'go' })` and `await child.receive('done')`.
 * In the child script: `const parent = connectParent()`, then
 * `await parent.receive('go')` and `parent.send({ type: 'done', ... })`.
 * A child that exits (or throws) fails the test's pending `receive` with its
 * stderr; `close()` ends its stdin and expects exit code 0.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** One line of the protocol. */
export interface Message {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** One end of the JSON-lines channel. */
export interface Channel<IN extends Message = Message, OUT extends Message = Message> {
  /** Writes one message. */
  send(message: OUT): void;
  /**
   * The next message of this type not received yet (the ones already
   * arrived first). Rejects after `timeoutMs` (default 20 s; `Infinity`
   * waits as long as it takes) or when the other side goes away.
   */
  receive<TYPE extends IN['type']>(type: TYPE, options?: { readonly timeoutMs?: number }): Promise<Extract<IN, { type: TYPE }>>;
  /** Every message received so far, in order. */
  readonly received: readonly IN[];
}

/** A child process and its channel. */
export interface Child<IN extends Message = Message, OUT extends Message = Message> extends Channel<IN, OUT> {
  readonly pid: number | undefined;
  /** What the child wrote to stderr so far. */
  readonly stderr: string;
  /** Ends the child's stdin and waits for it to exit; rejects unless the exit code is 0. */
  close(): Promise<void>;
  /** Kills the child (if it is still running) and waits for it to exit. */
  kill(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts `script` (a `.ts` file of this repository) in its own Node process,
 * resolving `ai-interventions` to the sources, with `args` as its argv.
 */
export function spawnChild<IN extends Message = Message, OUT extends Message = Message>(
  script: URL | string,
  { args = [] }: { readonly args?: ReadonlyArray<string | number> } = {},
): Child<IN, OUT> {
  const path = script instanceof URL ? fileURLToPath(script) : script;
  const child = spawn(
    process.execPath,
    [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      '--conditions=ai-interventions-source',
      path,
      ...args.map(String),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const channel = createChannel<IN, OUT>(child.stdout, child.stdin, () => `${path} (pid ${child.pid}): ${stderr}`);
  return {
    ...channel,
    pid: child.pid,
    get stderr() {
      return stderr;
    },
    close: async () => {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`${path} exited with ${String(code)}:\n${stderr}`);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The child's end of the channel: stdin in, stdout out. */
export function connectParent<IN extends Message = Message, OUT extends Message = Message>(): Channel<IN, OUT> {
  return createChannel<IN, OUT>(process.stdin, process.stdout, () => 'the parent');
}

function createChannel<IN extends Message, OUT extends Message>(
  input: Readable,
  output: Writable,
  describe: () => string,
): Channel<IN, OUT> {
  const received: IN[] = [];
  const delivered = new Set<IN>();
  const waiting = new Set<{ type: string; resolve: (message: IN) => void; reject: (error: Error) => void }>();
  let ended: Error | undefined;

  const lines = createInterface({ input });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let message: IN;
    try {
      message = JSON.parse(line) as IN;
    } catch {
      return; // not a protocol line (a stray log)
    }
    received.push(message);
    for (const waiter of waiting) {
      if (waiter.type === message.type) {
        waiting.delete(waiter);
        delivered.add(message);
        waiter.resolve(message);
        return;
      }
    }
  });
  lines.once('close', () => {
    ended = new Error(`the channel closed: ${describe()}`);
    for (const waiter of waiting) waiter.reject(ended);
    waiting.clear();
  });

  return {
    send: (message) => {
      output.write(`${JSON.stringify(message)}\n`);
    },
    receive: (type, { timeoutMs = 20_000 } = {}) => {
      const arrived = received.find((message) => message.type === type && !delivered.has(message));
      if (arrived !== undefined) {
        delivered.add(arrived);
        return Promise.resolve(arrived as Extract<IN, { type: typeof type }>);
      }
      if (ended !== undefined) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        const timer = Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              waiting.delete(waiter);
              reject(new Error(`no "${type}" message within ${timeoutMs} ms: ${describe()}`));
            }, timeoutMs)
          : undefined;
        const waiter = {
          type,
          resolve: (message: IN) => {
            clearTimeout(timer);
            resolve(message as Extract<IN, { type: typeof type }>);
          },
          reject: (error: Error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        waiting.add(waiter);
      });
    },
    get received() {
      return received;
    },
  };
}
