/**
 * Summarises a `node --cpu-prof` profile (self time) and a sampling heap
 * profile (bytes allocated) by where the code lives (this library, ai, zod,
 * Node internals, GC…) and by function.
 */
import { readFileSync } from 'node:fs';
import type { Span } from './measure.ts';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}
interface CpuProfile {
  /** When the profile began, µs on the monotonic clock; each sample comes `timeDeltas[i]` after the one before. */
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileSummary {
  /** µs (CPU profile) or bytes (heap profile). */
  readonly total: number;
  readonly byCategory: ReadonlyMap<string, number>;
  readonly byFunction: ReadonlyMap<string, { category: string; amount: number }>;
}

interface HeapNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

export function categoryOf(frame: CallFrame, root: string): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)' || functionName === '(root)') return 'VM (program)';
  if (url.startsWith(`${root}src/`) || url.startsWith(`${root}dist/`)) return 'ai-interventions';
  if (url.includes('/node_modules/ai/')) return 'ai';
  if (url.includes('/node_modules/@ai-sdk/provider-utils/')) return '@ai-sdk/provider-utils';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (url.includes('/node_modules/@standard-schema/') || url.includes('/node_modules/@vercel/')) return 'other deps';
  if (url.startsWith(`${root}bench/`)) return 'benchmark (mock model, tool, loop)';
  if (url.startsWith('node:')) return 'Node internals (streams, promises, timers…)';
  if (url === '') return 'native / builtins';
  return 'other';
}

function functionKey(frame: CallFrame, root: string): string {
  const file = frame.url.replace(root, '').replace(/^.*\/node_modules\//, '');
  return `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
}

function tally(entries: Iterable<[CallFrame, number]>, root: string): ProfileSummary {
  let total = 0;
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, { category: string; amount: number }>();
  for (const [frame, amount] of entries) {
    total += amount;
    const category = categoryOf(frame, root);
    byCategory.set(category, (byCategory.get(category) ?? 0) + amount);
    const key = functionKey(frame, root);
    const entry = byFunction.get(key) ?? { category, amount: 0 };
    entry.amount += amount;
    byFunction.set(key, entry);
  }
  return { total, byCategory, byFunction };
}

/** Self time (µs) of a `.cpuprofile`. */
export function summarizeCpu(path: string, root: string): ProfileSummary {
  const profile = readCpuProfile(path);
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, index) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  return tallyNodes(profile, byNode, root);
}

function readCpuProfile(path: string): CpuProfile {
  return JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
}

/** The summary of self time counted per profile node (`byNode`: node id → µs). */
function tallyNodes(profile: CpuProfile, byNode: ReadonlyMap<number, number>, root: string): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  return tally(
    [...byNode].map(([id, us]): [CallFrame, number] => [nodes.get(id)!.callFrame, us]),
    root,
  );
}

/**
 * Self time (µs) of a `.cpuprofile` taken while two or more workloads ran in
 * turn in one process, told apart by when each of their runs began and
 * ended (`spans`: per workload, in order, µs on the profile's clock; see
 * `measurePair`): one summary per workload, of the samples taken during its
 * runs. Samples between runs (the loop, the timing) count for neither.
 */
export function summarizeCpuInSpans(
  path: string,
  root: string,
  spans: Readonly<Record<string, readonly Span[]>>,
): Map<string, ProfileSummary> {
  const profile = readCpuProfile(path);
  // every run of every workload, by start
  const runs = Object.entries(spans)
    .flatMap(([name, list]) => list.map(([start, end]) => ({ name, start, end })))
    .sort((a, b) => a.start - b.start);
  const byNode = new Map<string, Map<number, number>>(Object.keys(spans).map((name) => [name, new Map()]));
  let time = profile.startTime;
  let at = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    while (at < runs.length && runs[at]!.end < time) at++;
    const run = runs[at];
    if (run === undefined || run.start > time) return;
    const counts = byNode.get(run.name)!;
    counts.set(id, (counts.get(id) ?? 0) + delta);
  });
  return new Map([...byNode].map(([name, counts]) => [name, tallyNodes(profile, counts, root)]));
}

/** Bytes allocated (self) of a sampling heap profile (`HeapProfiler.stopSampling`). */
export function summarizeHeap(path: string, root: string): ProfileSummary {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: HeapNode };
  const entries: [CallFrame, number][] = [];
  const walk = (node: HeapNode): void => {
    if (node.selfSize > 0) entries.push([node.callFrame, node.selfSize]);
    for (const child of node.children) walk(child);
  };
  walk(head);
  return tally(entries, root);
}
