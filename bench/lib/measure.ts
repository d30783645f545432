/**
 * Time and allocation of one workload, inside one child process.
 *
 * A workload is one complete agent run of `steps` steps (N model calls, N-1
 * tool calls). Everything is reported per step: the run's time or bytes
 * divided by N.
 *
 * Time: an explicit warmup (so the JIT has settled), then mitata's `measure`
 * (one sample = one run; mitata takes samples until both `min_samples` and
 * its time budget, `min_cpu_time` (the summed wall-clock time of the
 * samples), are reached, and drops the two fastest and two slowest samples
 * when it has more than 12). Runs of over 150 ms need fewer samples (5), and
 * runs of over 500 ms only 3, one warmup run and one allocation batch, or the
 * slowest peer scenarios alone would take minutes. The parent merges the samples of
 * a scenario's processes and reads median and p95 from them.
 *
 * Allocation: bytes allocated on the V8 heap while runs execute, counted
 * exactly even when garbage collections happen in between. After a forced
 * full GC, a `v8.GCProfiler` records every GC of the batch with the used heap
 * size before and after it, so
 *   allocated = (used after the batch - used before it) + sum over GCs of (used before GC - used after GC).
 * (Off-heap memory such as ArrayBuffer backing stores is not counted; see
 * `calibrate()` for the check of the method.) The allocation batches run after
 * the timing phase, so the profiler never touches a timed sample.
 */
import v8 from 'node:v8';
import { loadMitata } from './bench-deps.ts';

export interface Workload {
  /** Steps per run (model calls). */
  readonly steps: number;
  /** One complete run; throws if the run did not do what was scripted. */
  run(): Promise<void>;
}

export interface Budget {
  /** Warmup: at least this long, and at least `warmupRuns` runs. */
  readonly warmupMs: number;
  readonly warmupRuns: number;
  /** Timing: mitata's CPU-time budget, and the minimum number of samples. */
  readonly timeMs: number;
  readonly minSamples: number;
  /** Allocation: batches of runs, each at least this long; the median batch is reported. */
  readonly allocBatchMs: number;
  readonly allocBatches: number;
  /**
   * And at least this many runs per batch, however long they take: a batch of
   * one or two runs counts a few KB per step more (seen on a loaded machine,
   * where runs are slow), so figures compared across processes need more.
   */
  readonly allocMinRuns?: number;
}

export interface Measurement {
  readonly steps: number;
  readonly samples: number;
  /** Per step, microseconds. */
  readonly p50Us: number;
  readonly p95Us: number;
  readonly meanUs: number;
  readonly minUs: number;
  /** Every sample: the time of one run, ns (sorted; mitata's trimmed set). */
  readonly runNs: readonly number[];
  /** Bytes per step of each allocation batch. */
  readonly allocBatchBytes: readonly number[];
  /** Per step, bytes (median of the batches). */
  readonly allocBytes: number;
  readonly allocRuns: number;
  /** GCs that happened inside the allocation batches (accounted for). */
  readonly allocGcs: number;
}

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run the benchmark children with --expose-gc');
  collect();
};

export function usedHeap(): number {
  return v8.getHeapStatistics().used_heap_size;
}

/** Bytes allocated on the V8 heap while `work` runs (see the file comment). */
export async function allocatedDuring(work: () => Promise<void>): Promise<{ bytes: number; gcs: number }> {
  gc();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const before = usedHeap();
  await work();
  const after = usedHeap();
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const entry of statistics) {
    freed += entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
  }
  return { bytes: after - before + freed, gcs: statistics.length };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export async function measureWorkload(workload: Workload, budget: Budget): Promise<Measurement> {
  // warmup
  const warmupStart = performance.now();
  let warmupRuns = 0;
  let lastRunMs = 0;
  while (warmupRuns < budget.warmupRuns || performance.now() - warmupStart < budget.warmupMs) {
    const t0 = performance.now();
    await workload.run();
    lastRunMs = performance.now() - t0;
    warmupRuns++;
    // long runs: no more than the runs asked for (mitata's measure runs the function once more before sampling)
    if (lastRunMs > 500 && warmupRuns >= budget.warmupRuns) break;
  }

  // time: one sample = one run
  const { measure } = await loadMitata();
  // long runs: fewer samples, or the slowest peer scenarios alone would take minutes
  const minSamples = lastRunMs > 500 ? 3 : lastRunMs > 150 ? Math.max(5, Math.floor(budget.minSamples / 3)) : budget.minSamples;
  const stats = await measure(() => workload.run(), {
    min_samples: minSamples,
    min_cpu_time: budget.timeMs * 1e6,
  });
  const sorted = [...stats.samples].sort((a, b) => a - b);
  const perStepUs = (ns: number): number => ns / 1e3 / workload.steps;

  // allocation: runs per batch from the measured run time
  const runsPerBatch = Math.max(budget.allocMinRuns ?? 1, Math.ceil((budget.allocBatchMs * 1e6) / stats.avg));
  const perStepBytes: number[] = [];
  let allocGcs = 0;
  const batches = lastRunMs > 500 ? 1 : budget.allocBatches;
  for (let batch = 0; batch < batches; batch++) {
    const { bytes, gcs } = await allocatedDuring(async () => {
      for (let run = 0; run < runsPerBatch; run++) await workload.run();
    });
    allocGcs += gcs;
    perStepBytes.push(bytes / runsPerBatch / workload.steps);
  }

  return {
    steps: workload.steps,
    samples: sorted.length,
    p50Us: perStepUs(percentile(sorted, 0.5)),
    p95Us: perStepUs(percentile(sorted, 0.95)),
    meanUs: perStepUs(stats.avg),
    minUs: perStepUs(sorted[0] ?? Number.NaN),
    runNs: sorted,
    allocBatchBytes: perStepBytes,
    allocBytes: median(perStepBytes),
    allocRuns: runsPerBatch * batches,
    allocGcs,
  };
}

/** Two workloads timed in turn in one process (see {@link measurePair}). */
export interface PairMeasurement {
  readonly steps: number;
  /** The time of each run of the first workload and of the second, ns: index i of both is one pair. */
  readonly firstNs: readonly number[];
  readonly secondNs: readonly number[];
  /**
   * With `spans`: when each run began and ended, µs on the monotonic clock a
   * V8 CPU profile stamps its samples with (`process.hrtime`), to tell the
   * two workloads' samples apart in one profile (`summarizeCpuInSpans`).
   */
  readonly firstSpans?: readonly Span[];
  readonly secondSpans?: readonly Span[];
}

/** A run's start and end, µs on the monotonic clock. */
export type Span = readonly [start: number, end: number];

/**
 * The time of two workloads relative to each other, on a machine whose speed
 * drifts (a shared or virtualised one, where two processes a minute apart
 * can differ by tens of percent): one process runs one run of each in turn,
 * the order swapped at every pair, so both meet the same machine, the same
 * heap and the same JIT state, and the ratio of a pair's two runs drops what
 * the machine did to both. A warmup of `warmupRuns` of each first, then pairs
 * until `timeMs` of them have run.
 */
export async function measurePair(
  first: Workload,
  second: Workload,
  { warmupRuns, timeMs, spans = false }: { readonly warmupRuns: number; readonly timeMs: number; readonly spans?: boolean },
): Promise<PairMeasurement> {
  for (let run = 0; run < warmupRuns; run++) {
    await first.run();
    await second.run();
  }
  const firstNs: number[] = [];
  const secondNs: number[] = [];
  // performance.now() counts on the monotonic clock from the process's start: its µs plus this are the clock's
  const monotonicUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1e3;
  const firstSpans: Span[] = [];
  const secondSpans: Span[] = [];
  const timed = async (workload: Workload, into: Span[]): Promise<number> => {
    const t0 = performance.now();
    await workload.run();
    const t1 = performance.now();
    if (spans) into.push([monotonicUs + t0 * 1e3, monotonicUs + t1 * 1e3]);
    return (t1 - t0) * 1e6;
  };
  const end = performance.now() + timeMs;
  while (performance.now() < end) {
    if (firstNs.length % 2 === 0) {
      firstNs.push(await timed(first, firstSpans));
      secondNs.push(await timed(second, secondSpans));
    } else {
      secondNs.push(await timed(second, secondSpans));
      firstNs.push(await timed(first, firstSpans));
    }
  }
  return { steps: first.steps, firstNs, secondNs, ...(spans ? { firstSpans, secondSpans } : {}) };
}

/**
 * Checks the allocation counter on objects of known size: one million
 * `{ x, y, z }` literals are 48 bytes each on 64-bit V8 without pointer
 * compression (Node's default), and the count must hold across the GCs
 * they trigger.
 */
export async function calibrate(): Promise<{ expectedBytesPerObject: number; measuredBytesPerObject: number; gcs: number }> {
  const count = 1_000_000;
  let sink: unknown;
  const make = (i: number) => ({ x: i, y: i, z: i });
  for (let i = 0; i < 10_000; i++) sink = make(i); // compile first
  const { bytes, gcs } = await allocatedDuring(async () => {
    for (let i = 0; i < count; i++) sink = make(i);
  });
  void sink;
  return { expectedBytesPerObject: 48, measuredBytesPerObject: bytes / count, gcs };
}
