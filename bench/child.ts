/**
 * One benchmark scenario in its own process (started by run.ts with
 * --expose-gc, --conditions=ai-interventions-source and the resolve hook).
 * Usage: node child.ts '<scenario JSON>' [--profile <seconds>]
 * Sends one ChildReport to the parent over IPC (or prints it without IPC).
 */
import type { Session } from 'node:inspector/promises';
import { calibrate, measurePair, measureWorkload, usedHeap, type Workload } from './lib/measure.ts';
import {
  type ChildReport,
  type FirstChunkResult,
  type FloorImpl,
  LATENCY_IMPLS,
  latencyK,
  type Result,
  type Scenario,
  type SoakPoint,
  TOOL_SET_SIZES,
} from './lib/scenario.ts';
import { floorWorkload, toolLatencyWorkload, toolSetWorkload } from './scenarios/against-floor.ts';
import { aiSdkWorkload, firstChunkWorkload } from './scenarios/ai-sdk.ts';
import { langchainWorkload, strandsWorkload } from './scenarios/peers.ts';

const started = performance.now();
const scenario = JSON.parse(process.argv[2] ?? '{}') as Scenario;
const profileIndex = process.argv.indexOf('--profile');
const profileSeconds = profileIndex === -1 ? undefined : Number(process.argv[profileIndex + 1] ?? 5);
const heapIndex = process.argv.indexOf('--heap-profile');
const heapProfilePath = heapIndex === -1 ? undefined : process.argv[heapIndex + 1];

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function workloadOf(scenario: Scenario): Promise<{ workload: Workload; decisionsPerRun: () => Promise<number> }> {
  switch (scenario.kind) {
    case 'ai-sdk':
      return aiSdkWorkload(scenario.impl, scenario.mode, scenario.k, scenario.n);
    case 'floor':
      return floorWorkload(scenario.impl, scenario.mode, scenario.mix, scenario.k, scenario.n);
    case 'langchain':
      return { workload: await langchainWorkload(scenario.k, scenario.n), decisionsPerRun: async () => 0 };
    case 'strands':
      return { workload: await strandsWorkload(scenario.k, scenario.n), decisionsPerRun: async () => 0 };
    default:
      throw new Error(`no workload for ${scenario.kind}`);
  }
}

/**
 * Runs the workload for a while with nothing else going on, for
 * `node --cpu-prof`; or, with `heapProfilePath`, under V8's sampling heap
 * profiler keeping the objects GCs collected too (so it attributes every
 * allocation, not only what survives), started after the warmup.
 */
async function profile(workload: Workload, seconds: number, heapProfilePath?: string): Promise<Result> {
  for (let i = 0; i < 20; i++) await workload.run();
  let session: Session | undefined;
  if (heapProfilePath !== undefined) {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  let runs = 0;
  const end = performance.now() + seconds * 1e3;
  while (performance.now() < end) {
    await workload.run();
    runs++;
  }
  if (session !== undefined && heapProfilePath !== undefined) {
    const { profile: heapProfile } = await session.post('HeapProfiler.stopSampling');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(heapProfilePath, JSON.stringify(heapProfile));
    session.disconnect();
  }
  return { kind: 'soak', points: [], runs, elapsedMs: seconds * 1e3 };
}

async function firstChunk(scenario: Extract<Scenario, { kind: 'first-chunk' }>): Promise<Result> {
  const results: FirstChunkResult[] = [];
  for (const shape of ['loop', 'paced'] as const) {
    const once = firstChunkWorkload(scenario.impl, scenario.k, shape, scenario.n);
    for (let i = 0; i < scenario.warmupRuns; i++) await once();
    const samples: number[] = [];
    for (let i = 0; i < scenario.samples; i++) samples.push(await once());
    results.push({ shape, samplesUs: samples });
  }
  return { kind: 'first-chunk', results };
}

/**
 * Every tool-latency row in one process: a run of each per round, the order
 * rotated every round (each row meets the same machine, and follows each
 * of the others as often), after `warmupRounds` rounds.
 */
async function toolLatency(scenario: Extract<Scenario, { kind: 'tool-latency' }>): Promise<Result> {
  const onces = LATENCY_IMPLS.map((impl) => toolLatencyWorkload(impl, latencyK(impl, scenario.k)));
  const rows = LATENCY_IMPLS.map((impl) => ({ impl, fromToolCallUs: [] as number[], fromFinishUs: [] as number[] }));
  for (let round = 0; round < scenario.warmupRounds + scenario.rounds; round++) {
    for (let i = 0; i < onces.length; i++) {
      const at = (i + round) % onces.length;
      const sample = await onces[at]!();
      if (round < scenario.warmupRounds) continue;
      rows[at]!.fromToolCallUs.push(sample.fromToolCallUs);
      rows[at]!.fromFinishUs.push(sample.fromFinishUs);
    }
  }
  return { kind: 'tool-latency', rows };
}

/**
 * Every tool-set row in one process: for each size, one request of raw, the
 * floor and ours per round, the order rotated every round, after
 * `warmupRounds` rounds.
 */
async function toolSet(scenario: Extract<Scenario, { kind: 'tool-set' }>): Promise<Result> {
  const impls: readonly FloorImpl[] = ['raw', 'floor', 'ours'];
  const rows = TOOL_SET_SIZES.flatMap((tools) =>
    impls.map((impl) => ({ impl, tools, request: toolSetWorkload(impl, tools), requestUs: [] as number[] })),
  );
  for (let round = 0; round < scenario.warmupRounds + scenario.rounds; round++) {
    for (let i = 0; i < rows.length; i++) {
      // rotated within each size: a size's three rows run one after the other
      const size = Math.floor(i / impls.length);
      const row = rows[size * impls.length + ((i + round) % impls.length)]!;
      const t0 = performance.now();
      await row.request();
      if (round >= scenario.warmupRounds) row.requestUs.push((performance.now() - t0) * 1e3);
    }
  }
  return { kind: 'tool-set', rows: rows.map(({ impl, tools, requestUs }) => ({ impl, tools, requestUs })) };
}

async function soak(scenario: Extract<Scenario, { kind: 'soak' }>): Promise<Result> {
  const { workload } = aiSdkWorkload(scenario.impl, scenario.mode, scenario.k, scenario.n);
  for (let i = 0; i < scenario.warmupRuns; i++) await workload.run();
  const heapAfterGc = (): number => {
    gc();
    gc();
    return usedHeap();
  };
  const points: SoakPoint[] = [{ steps: 0, heapUsedBytes: heapAfterGc() }];
  const t0 = performance.now();
  let steps = 0;
  let runs = 0;
  while (steps < scenario.totalSteps) {
    await workload.run();
    runs++;
    steps += workload.steps;
    if (steps % scenario.intervalSteps === 0) points.push({ steps, heapUsedBytes: heapAfterGc() });
  }
  return { kind: 'soak', points, runs, elapsedMs: performance.now() - t0 };
}

async function main(): Promise<Result> {
  switch (scenario.kind) {
    case 'calibrate':
      return { kind: 'calibrate', ...(await calibrate()) };
    case 'first-chunk':
      return firstChunk(scenario);
    case 'tool-latency':
      return toolLatency(scenario);
    case 'tool-set':
      return toolSet(scenario);
    case 'floor-pair': {
      const { mode, mix, k, n } = scenario;
      const floor = floorWorkload('floor', mode, mix, k, n).workload;
      const ours = floorWorkload('ours', mode, mix, k, n).workload;
      return { kind: 'pair', pair: await measurePair(floor, ours, scenario) };
    }
    case 'soak':
      return soak(scenario);
    case 'inbox-redis':
      // loaded only here: the Redis client is no other scenario's
      return (await import('./scenarios/inbox-redis.ts')).inboxRedis(scenario);
    default: {
      const { workload, decisionsPerRun } = await workloadOf(scenario);
      if (profileSeconds !== undefined) return profile(workload, profileSeconds, heapProfilePath);
      const measurement = await measureWorkload(workload, scenario.budget);
      return { kind: 'measurement', measurement, decisionsPerRun: await decisionsPerRun() };
    }
  }
}

const result = await main();
const redirects = (globalThis as { __benchRedirects?: Map<string, string> }).__benchRedirects;
const report: ChildReport = {
  result,
  redirects: Object.fromEntries(redirects ?? []),
  wallMs: performance.now() - started,
};
if (process.send) {
  process.send(report, () => process.exit(0));
} else {
  console.log(JSON.stringify(report));
  process.exit(0);
}
