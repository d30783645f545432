/**
 * A range run's install, in its scratch copy of the package: the manifest
 * pinned to the plan's versions (each at one exact version, forced on every
 * package that depends on it through npm `overrides`, as a consumer's
 * dedupe gives), and the check that `node_modules` holds exactly one copy
 * of each, at that version.
 *
 * Usage (in the scratch copy, the plan from scripts/ai-range/plan.ts as the argument):
 *   node --experimental-strip-types scripts/ai-range/pin.ts manifest '<plan json>'   rewrites package.json
 *   node --experimental-strip-types scripts/ai-range/pin.ts check '<plan json>'      fails on any other copy
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RangePlan } from './plan.ts';

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `manifest` with each of `packages` at its exact version, and overridden to it everywhere below. */
export function pinManifest(manifest: Manifest, packages: Readonly<Record<string, string>>): Manifest {
  const dependencies = { ...manifest.dependencies };
  const devDependencies = { ...manifest.devDependencies };
  const overrides = { ...manifest.overrides };
  for (const [name, version] of Object.entries(packages)) {
    if (dependencies[name] !== undefined) dependencies[name] = version;
    else devDependencies[name] = version;
    // npm: an override of a direct dependency must be its own spec; `$name` refers to it
    overrides[name] = `$${name}`;
  }
  return { ...manifest, dependencies, devDependencies, overrides };
}

/** Every installed copy of each of `names` under `root`'s node_modules (the shallowest first): its path and version. */
export function installedCopies(root: string, names: readonly string[]): Array<{ name: string; path: string; version: string }> {
  const copies: Array<{ name: string; path: string; version: string }> = [];
  const visit = (dir: string) => {
    const modules = join(dir, 'node_modules');
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const packages = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry];
      for (const name of packages) {
        const path = join(modules, name);
        if (names.includes(name)) {
          const { version } = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version: string };
          copies.push({ name, path, version });
        }
        visit(path);
      }
    }
  };
  visit(root);
  // the hoisted copy first
  const depth = (path: string) => path.split('node_modules').length;
  return copies.sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
}

/** What is wrong with the install under `root` for `packages`: one line per problem. */
export function installProblems(root: string, packages: Readonly<Record<string, string>>): string[] {
  const copies = installedCopies(root, Object.keys(packages));
  const problems: string[] = [];
  for (const [name, version] of Object.entries(packages)) {
    const found = copies.filter((copy) => copy.name === name);
    if (found.length === 0) problems.push(`${name} is not installed`);
    for (const copy of found) if (copy.version !== version) problems.push(`${copy.path} is ${name}@${copy.version}, not ${version}`);
    if (found.length > 1) problems.push(`${found.length} copies of ${name}: ${found.map((copy) => copy.path).join(', ')}`);
  }
  return problems;
}

if (import.meta.main) {
  const [command, json] = process.argv.slice(2);
  const plan = JSON.parse(json ?? '{}') as RangePlan;
  if (command === 'manifest') {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
    writeFileSync('package.json', `${JSON.stringify(pinManifest(manifest, plan.packages), null, 2)}\n`);
  } else if (command === 'check') {
    const problems = installProblems('.', plan.packages);
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exit(1);
    }
  } else {
    console.error('usage: pin.ts manifest|check <plan json>');
    process.exit(2);
  }
}
