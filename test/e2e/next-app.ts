/**
 * What the browser end-to-end tests share: building the library, running a
 * Next.js app (`next build`, `next start`, `next dev`) on a free loopback
 * port, and driving Debian's Chromium through the example's playwright-core
 * (no browser is ever downloaded).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const example = join(root, 'examples', 'nextjs');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const next = join(example, 'node_modules/next/dist/bin/next');

// -- the few playwright-core types used here (its own types live in the
// example's node_modules, which do not exist when the repository is typechecked)
export interface Locator {
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<unknown>;
  getAttribute(name: string): Promise<string | null>;
  innerText(): Promise<string>;
  textContent(): Promise<string | null>;
  waitFor(options?: { state?: 'attached' | 'visible'; timeout?: number }): Promise<void>;
  count(): Promise<number>;
  first(): Locator;
  last(): Locator;
  nth(index: number): Locator;
  locator(selector: string): Locator;
  getByTestId(testId: string): Locator;
}
/** A request a page makes, as `page.route` hands it over. */
export interface Route {
  abort(errorCode?: string): Promise<void>;
  continue(): Promise<void>;
  request(): { method(): string; url(): string; postData(): string | null };
}
export interface Page extends Pick<Locator, 'locator' | 'getByTestId'> {
  goto(url: string): Promise<unknown>;
  reload(): Promise<unknown>;
  url(): string;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  getByRole(role: string, options?: { name?: string }): Locator;
  getByText(text: string): Locator;
  route(url: string, handler: (route: Route) => Promise<void> | void, options?: { times?: number }): Promise<void>;
  close(): Promise<void>;
}
export interface BrowserContext {
  newPage(): Promise<Page>;
  addCookies(cookies: ReadonlyArray<{ name: string; value: string; url: string }>): Promise<void>;
  close(): Promise<void>;
}
export interface Browser {
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}
interface PlaywrightChromium {
  launch(options: { executablePath: string; headless: boolean; args: string[]; timeout?: number }): Promise<Browser>;
}

/** Runs a command to completion; throws with its output when it fails. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0
        ? resolvePromise()
        : reject(
            new Error(`${command} ${args.join(' ')} (in ${cwd}) failed with ${signal ?? `exit code ${code}`}:\n${output.slice(-4000)}`),
          ),
    );
  });
}

/** Whether dist/ is missing, or older than a file of src/ (or the build's config). */
function distIsStale(): boolean {
  const built = join(root, 'dist', 'index.js');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newest = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
  };
  return [join(root, 'src'), join(root, 'package.json'), join(root, 'tsup.config.ts')].some((path) => newest(path) > builtAt);
}

/** The example's apps run the built library (dist/) with the example's dependencies: build and install what is missing. */
export async function prepareExample(timed: <T>(label: string, work: () => Promise<T>) => Promise<T>): Promise<void> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No Chromium at ${chromiumPath}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  if (distIsStale()) await timed('npm run build (library)', () => run('npm', ['run', 'build'], root));
  await timed('npm install (example)', () => run('npm', ['--prefix', example, 'install', '--no-audit', '--no-fund'], root));
}

/** `next build` of the app in `dir` (relative to the example, or the example itself). */
export function nextBuild(dir = '.'): Promise<void> {
  return run(process.execPath, [next, 'build', dir], example);
}

/** A port nothing listens on, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolvePromise, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolvePromise);
  });
  const address = probe.address();
  await new Promise<void>((resolvePromise) => probe.close(() => resolvePromise()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A running `next start` or `next dev`, in its own process group. */
export interface NextServer {
  readonly baseURL: string;
  /** What the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `next start` or `next dev` for the app in `dir` (relative to the
 * example) on `port` (default: a free one), and waits until `ready` (a path)
 * answers 200.
 */
export async function startNext({
  command,
  dir = '.',
  env,
  ready,
  port,
  timeoutMs = 60_000,
}: {
  command: 'start' | 'dev';
  dir?: string;
  env: NodeJS.ProcessEnv;
  ready: string;
  /** The port: the same one again restarts a server where its pages left it. */
  port?: number;
  timeoutMs?: number;
}): Promise<NextServer> {
  port ??= await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [next, command, dir, '-H', '127.0.0.1', '-p', String(port)], {
    cwd: example,
    env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server: NextServer = { baseURL, output: () => output, stop: () => stopProcessGroup(child) };
  try {
    await waitForServer(`${baseURL}${ready}`, child, timeoutMs, () => output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 200));
  }
  throw new Error(`next did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** Ends a process started in its own group, and anything it started. */
async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const killed = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killed);
}

/**
 * A headless Chromium (Debian's): each `newContext()` is a browser profile
 * of its own (its cookies, its storage), as two people on two machines.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = (await import(pathToFileURL(join(example, 'node_modules/playwright-core/index.mjs')).href)) as {
    chromium: PlaywrightChromium;
  };
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
