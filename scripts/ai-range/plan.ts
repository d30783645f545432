/**
 * What `scripts/test-ai-range.sh` installs for one `ai` release: the
 * `@ai-sdk/provider` and `@ai-sdk/provider-utils` releases that `ai` pins,
 * and for each `@ai-sdk/*` devDependency (openai, anthropic, mcp, react) the
 * newest release of its major built on those same pins (and on the `ai` and
 * companions chosen, for one that pins them, as `@ai-sdk/react` does). When
 * the registry has no such release yet, the newest whose pins are all older
 * than those is taken instead, forced onto the tested ones (npm `overrides`,
 * one copy of each, as a consumer's dedupe gives), and the plan says so.
 *
 * Usage: node --experimental-strip-types scripts/ai-range/plan.ts <lowest|newest|X.Y.Z>
 * prints the plan as one line of JSON.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

/** One release of a package, as `npm view <name>@<range> version dependencies --json` lists it. */
export interface Release {
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

/** A package the range run installs at an exact version. */
export interface Pick {
  readonly name: string;
  readonly version: string;
  /** Whether the release pins exactly what is tested (otherwise it is forced onto it). */
  readonly exact: boolean;
  /** What it pins among the tested packages. */
  readonly pins: Readonly<Record<string, string>>;
}

/** The install of one range run. */
export interface RangePlan {
  readonly ai: string;
  /** `ai`, `@ai-sdk/provider`, `@ai-sdk/provider-utils` and the companions, at exact versions. */
  readonly packages: Readonly<Record<string, string>>;
  readonly companions: readonly Pick[];
  /** One line per companion that had to fall back. */
  readonly fallbacks: readonly string[];
}

/** The registry as the plan reads it: the releases of `name` matching `range`. */
export type Releases = (name: string, range: string) => Promise<readonly Release[]>;

const PROVIDERS = ['@ai-sdk/provider', '@ai-sdk/provider-utils'] as const;

/** -1, 0 or 1: `a` against `b`, both `X.Y.Z`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number)) as [number[], number[]];
  for (let index = 0; index < 3; index++) {
    const difference = (x[index] ?? 0) - (y[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

const isRelease = (version: string) => /^\d+\.\d+\.\d+$/.test(version);

/**
 * The release of `name` to test beside `tested` (name → exact version): the
 * newest whose pins among `tested` equal them, or else the newest whose pins
 * are none newer; `undefined` when there is neither.
 */
export function pickRelease(name: string, releases: readonly Release[], tested: Readonly<Record<string, string>>): Pick | undefined {
  const candidates = releases
    .filter((release) => isRelease(release.version))
    .map((release) => {
      const pins: Record<string, string> = {};
      for (const [dependency, version] of Object.entries(release.dependencies ?? {})) {
        if (tested[dependency] !== undefined) pins[dependency] = version;
      }
      return { name, version: release.version, pins };
    })
    .sort((a, b) => compareVersions(b.version, a.version));
  const pinned = (pick: { pins: Record<string, string> }, fits: (pin: string, version: string) => boolean) =>
    Object.entries(pick.pins).every(([dependency, pin]) => isRelease(pin) && fits(pin, tested[dependency] as string));
  const exact = candidates.find((pick) => pinned(pick, (pin, version) => pin === version));
  if (exact !== undefined) return { ...exact, exact: true };
  const older = candidates.find((pick) => pinned(pick, (pin, version) => compareVersions(pin, version) <= 0));
  return older === undefined ? undefined : { ...older, exact: false };
}

/**
 * The plan for `ai@version`: `aiDependencies` is what that release depends
 * on, `companions` the `@ai-sdk/*` devDependencies by name, with their major.
 */
export async function planRange({
  version,
  aiDependencies,
  companions,
  releases,
}: {
  version: string;
  aiDependencies: Readonly<Record<string, string>>;
  companions: Readonly<Record<string, number>>;
  releases: Releases;
}): Promise<RangePlan> {
  const tested: Record<string, string> = { ai: version };
  for (const name of PROVIDERS) {
    const pin = aiDependencies[name];
    if (pin === undefined || !isRelease(pin)) throw new Error(`ai@${version} pins ${name} "${pin}"; expected an exact X.Y.Z`);
    tested[name] = pin;
  }
  const listed = await Promise.all(
    Object.entries(companions).map(async ([name, major]) => ({ name, list: await releases(name, String(major)) })),
  );
  // a companion that pins another (@ai-sdk/react pins @ai-sdk/mcp) is picked after it
  const pinsOthers = (entry: { list: readonly Release[] }) =>
    entry.list.some((release) => Object.keys(release.dependencies ?? {}).some((name) => name in companions));
  listed.sort((a, b) => Number(pinsOthers(a)) - Number(pinsOthers(b)));

  const picks: Pick[] = [];
  const fallbacks: string[] = [];
  for (const { name, list } of listed) {
    const pick = pickRelease(name, list, tested);
    if (pick === undefined) throw new Error(`no release of ${name}@${companions[name]} pins ${describe(tested)} or older`);
    picks.push(pick);
    tested[name] = pick.version;
    if (!pick.exact) {
      fallbacks.push(
        `no ${name}@${companions[name]} release pins ${describe(pick.pins, tested)}: installing ${name}@${pick.version} ` +
          `(it pins ${describe(pick.pins)}) with ${describe(pick.pins, tested, true)} in their place`,
      );
    }
  }
  return { ai: version, packages: tested, companions: picks, fallbacks };
}

/** `name@version` for each of `pins`' names: its pin, or (`tested`) the tested version. */
function describe(pins: Readonly<Record<string, string>>, tested?: Readonly<Record<string, string>>, onlyChanged = false): string {
  return Object.keys(pins)
    .filter((name) => !onlyChanged || tested?.[name] !== pins[name])
    .map((name) => `${name}@${tested?.[name] ?? pins[name]}`)
    .join(' ');
}

/** The registry through npm: `npm view <name>@<range> version dependencies --json`. */
export const npmReleases: Releases = async (name, range) => {
  const { stdout } = await promisify(execFile)('npm', ['view', `${name}@${range}`, 'version', 'dependencies', '--json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const parsed = JSON.parse(stdout) as Release | Release[];
  return [parsed].flat();
};

/** The `ai` version a target names: the floor of the peer range, the newest release in it, or itself. */
export async function resolveTarget(target: string, peerRange: string): Promise<string> {
  if (isRelease(target)) return target;
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(peerRange)?.[1];
  if (floor === undefined) throw new Error(`peerDependencies.ai is "${peerRange}"; expected ^X.Y.Z`);
  if (target === 'lowest') return floor;
  if (target !== 'newest') throw new Error(`unknown target "${target}": lowest, newest or X.Y.Z`);
  const { stdout } = await promisify(execFile)('npm', ['view', `ai@${peerRange}`, 'version', '--json']);
  const versions = [JSON.parse(stdout) as string | string[]].flat().filter(isRelease);
  const newest = versions.sort(compareVersions).at(-1);
  if (newest === undefined) throw new Error(`the registry serves no ai release in ${peerRange}`);
  return newest;
}

if (import.meta.main) {
  const target = process.argv[2] ?? 'lowest';
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    peerDependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const version = await resolveTarget(target, manifest.peerDependencies.ai as string);
  const [ai] = await npmReleases('ai', version);
  const companions: Record<string, number> = {};
  for (const [name, range] of Object.entries(manifest.devDependencies)) {
    if (name.startsWith('@ai-sdk/') && !(PROVIDERS as readonly string[]).includes(name)) {
      companions[name] = Number(range.replace(/^[\^~]/, '').split('.')[0]);
    }
  }
  const plan = await planRange({ version, aiDependencies: ai?.dependencies ?? {}, companions, releases: npmReleases });
  console.log(JSON.stringify(plan));
}
