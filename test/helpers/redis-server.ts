/**
 * A throwaway `redis-server` for the tests: its own port on 127.0.0.1, no
 * persistence, killed after. `useRedisServer()` gives a describe block one
 * server and one client; test files skip (with a message) where there is no
 * `redis-server`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

/** Whether a `redis-server` binary is on the PATH. */
export const hasRedisServer: boolean = (() => {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
})();

export interface RedisServer {
  readonly port: number;
  /** Whether the server process has exited. */
  readonly exited: boolean;
  /** Kills the server (SIGKILL, as a crash would) and waits until it is gone. */
  kill(): Promise<void>;
}

/** A describe title that says why it is skipped on a machine without `redis-server`. */
export function redisTitle(title: string): string {
  if (hasRedisServer) return title;
  const skipped = `${title} (SKIPPED: no \`redis-server\` on the PATH; on Debian: apt-get install redis-server)`;
  console.warn(skipped);
  return skipped;
}

/** A client that fails fast while Redis is away (the default would queue commands through 20 reconnects). */
export function connectRedis(port: number): Redis {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
  client.on('error', () => {}); // connection errors reach the callers; no log noise
  return client;
}

/**
 * One server and one client for the enclosing describe block (started in
 * `beforeAll`, stopped in `afterAll`); read them inside tests.
 */
export function useRedisServer(): { readonly server: RedisServer; readonly client: Redis } {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    client = connectRedis(server.port);
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.kill();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('useRedisServer: read the server inside a test');
      return server;
    },
    get client() {
      if (client === undefined) throw new Error('useRedisServer: read the client inside a test');
      return client;
    },
  };
}

let prefixes = 0;
/** A key prefix no other test (or test process) uses. */
export function uniquePrefix(): string {
  return `test-${process.pid}-${++prefixes}:`;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let exited = false;
  const gone = once(child, 'exit').then(() => {
    exited = true;
  });
  await ready(child);
  return {
    port,
    get exited() {
      return exited;
    },
    kill: async () => {
      if (!exited) child.kill('SIGKILL');
      await gone;
    },
  };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onExit = (code: number | null) => fail(new Error(`redis-server exited with ${String(code)}:\n${output}`));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('error', fail);
        child.off('exit', onExit);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', fail);
    child.once('exit', onExit);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
