/**
 * The section of BENCHMARKS.md on the approval inbox on a real
 * `redis-server` (bench/scenarios/inbox-redis.ts): a manager's first page
 * and answering one request by id, with 10,000 requests waiting, against
 * issue 37's targets; and the Redis commands each operation sends, a guarded
 * tool call's with and without a request pending.
 */
import { percentile } from './measure.ts';
import { type Verdict, withSection } from './report.ts';
import type { InboxRedisRow, Result } from './scenario.ts';

export type InboxRedisResult = Extract<Result, { kind: 'inbox-redis' }>;

export const INBOX_START = '<!-- inbox-redis: written by npm run bench, and alone by npm run bench -- --redis -->';
export const INBOX_END = '<!-- /inbox-redis -->';

/** Issue 37's targets, on the p50 (ms). */
const TARGETS: Readonly<Record<string, number>> = { list: 20, answer: 10 };

/** The rows in the table's order, each with what it measures. */
const ROWS: readonly { readonly name: string; readonly text: (result: InboxRedisResult) => string }[] = [
  {
    name: 'list',
    text: (result) =>
      `a manager's first page: \`interventions.inbox.list({ runtimeContext, limit: ${result.pageSize} })\` (the lists it reads hold ${count(result.audienceSize)} entries)`,
  },
  { name: 'list-new', text: () => 'the same on an instance that has not listed before (a new process, after a deploy)' },
  { name: 'answer', text: () => 'answering one by id: `interventions.inbox.answer(id, { approved: true, runtimeContext })`' },
  { name: 'ask', text: () => "an employee's call a handler confirms: `interventions.generateText`, its request put in the inbox" },
  {
    name: 'resume',
    text: () =>
      "the employee's next request: `inbox.resume(history)` + `interventions.generateText`, the approved call run once (the ledger)",
  },
  {
    name: 'proceed',
    text: () => 'a guarded tool call a handler lets proceed: `inbox.resume` + `interventions.generateText`, nothing pending for the caller',
  },
  { name: 'proceed-pending', text: () => "the same, the caller's own request pending in the inbox" },
];

/** The section (between its markers) and its verdicts; `result` undefined: skipped, `skipped` says why. */
export function inboxSection(
  result: InboxRedisResult | undefined,
  {
    command,
    environment,
    skipped,
  }: { readonly command: string; readonly environment: readonly string[]; readonly skipped?: string | undefined },
): { readonly markdown: string; readonly verdicts: { label: string; verdict: Verdict }[] } {
  const heading = `${INBOX_START}
## The approval inbox on Redis

Issue 37's rows: the approval inbox on a real \`redis-server\` (its own, started on a free 127.0.0.1 port, no
persistence), bench/scenarios/inbox-redis.ts: a runtime with \`approvalLedger\` and \`approvalInbox\` on one
\`createRedisStore\`, whose one handler asks a manager to confirm every refund and lets every order lookup proceed.`;
  if (result === undefined) {
    return { markdown: `${heading}\n\n**Skipped**: ${skipped ?? 'not run'}.\n${INBOX_END}`, verdicts: [] };
  }
  const rows = new Map(result.rows.map((row) => [row.name, row]));
  const verdicts: { label: string; verdict: Verdict }[] = [];
  const lines = ['| operation | p50 | p95 | samples | Redis commands sent | target |', '|---|--:|--:|--:|---|---|'];
  for (const { name, text } of ROWS) {
    const row = rows.get(name);
    if (row === undefined) continue;
    const sorted = [...row.samplesUs].sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5) / 1e3;
    const target = TARGETS[name];
    let verdict = '';
    if (target !== undefined) {
      const pass = p50 <= target;
      verdicts.push({ label: `inbox on Redis, ${name} p50 ${ms(p50)}`, verdict: { target: `p50 ≤ ${target} ms`, pass } });
      verdict = `p50 ≤ ${target} ms: **${pass ? 'pass' : 'FAIL'}**`;
    }
    lines.push(
      `| ${text(result)} | ${ms(p50)} | ${ms(percentile(sorted, 0.95) / 1e3)} | ${sorted.length} | ${commandsOf(row)} | ${verdict} |`,
    );
  }
  const markdown = `${heading}

The inbox holds ${count(result.pending)} requests waiting for an answer: ${count(result.filledBy)} put directly through
\`createApprovalInbox(...).put\` (copies of a real request, asked over the last six days, 85 % for \`role:manager\`, 10 %
for \`role:finance\`, 5 % for one person; ${result.fillConcurrency} at a time, in ${(result.fillMs / 1e3).toFixed(1)} s), the newest asked
through \`interventions.generateText\` by employees. Each operation is timed (after a few unmeasured ones) and its
Redis commands counted by a client that counts what the store sends it: each command is one round trip (a Lua
script's own calls inside Redis are not counted). Every sample was checked: a full page of pending requests, each
answer \`approved\`, each resumed refund run once with its result sent to the model, each lookup run. A new
instance's first page is measured in a process of its own (the same inbox, filled again): reading large lists leaves
a process slower for a while after.

- ${command}: ${(result.wallMs / 1e3).toFixed(0)} s (two processes, each starting Redis and filling the inbox; a new instance's first page in the second)
${environment.join('\n')}
- ${result.redis}

Targets (issue 37): a manager's first page p50 ≤ 20 ms, answering one by id p50 ≤ 10 ms.
${verdicts.filter(({ verdict }) => verdict.pass === true).length} of ${verdicts.length} pass.

${lines.join('\n')}

A tool call a handler lets proceed sends Redis nothing, whether or not requests are pending: the ledger and the
inbox are read only for a call a handler confirms (its request put in the inbox) and for the answers a history
carries (a resume). A page reads the lists of the manager's audience (\`user:<id>\`, each role, \`anyone\`) and
merges them newest first: an instance reads a list whole the first time, then only the entries appended since (it
keeps them sorted), so only a new instance's first page grows with the requests ever listed for that audience (a
list keeps the entries of answered and forgotten requests too). Then it reads each request shown and what became of
it (its answer, the approvals so far, the store's clock): 3 commands a request.
${INBOX_END}`;
  return { markdown, verdicts };
}

/** Writes the section into a BENCHMARKS.md, in place of the last one (new: before "What is measured"). */
export function withInboxSection(markdown: string, section: string): string {
  return withSection(markdown, section, INBOX_START, INBOX_END, '## What is measured');
}

function commandsOf(row: InboxRedisRow): string {
  const sorted = [...row.commands].sort((a, b) => a - b);
  const low = sorted[0] ?? 0;
  const high = sorted.at(-1) ?? 0;
  const total = low === high ? String(low) : `${percentile(sorted, 0.5)} (${low} to ${high})`;
  const names = Object.entries(row.breakdown)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${n}`);
  return names.length === 0 || low !== high ? total : `${total}: ${names.join(', ')}`;
}

function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
