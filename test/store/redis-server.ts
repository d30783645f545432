/**
 * A throwaway `redis-server` for the tests: its own port on 127.0.0.1, no
 * persistence, killed after.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

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
