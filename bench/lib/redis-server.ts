/**
 * A throwaway `redis-server` for the benchmark's Redis rows: its own free
 * port on 127.0.0.1, no persistence, stopped after. The rows are skipped
 * (with a message saying so) where no `redis-server` is on the PATH.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** The `redis-server --version` line, or `undefined` when there is none on the PATH. */
export function redisServerVersion(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error === undefined && probe.status === 0 ? probe.stdout.trim() : undefined;
}

export interface BenchRedis {
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a `redis-server` on a free port and waits until it accepts connections. */
export async function startRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await accepting(server);
  return {
    port,
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await exited;
    },
  };
}

function accepting(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      server.kill('SIGKILL');
      reject(error);
    };
    const onExit = (code: number | null) => fail(new Error(`redis-server exited with ${String(code)}:\n${output}`));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      server.off('error', fail);
      server.off('exit', onExit);
      server.stdout?.off('data', onData);
      server.stdout?.resume();
      server.stderr?.resume();
      resolve();
    };
    server.once('error', fail);
    server.once('exit', onExit);
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stdout?.on('data', onData);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
