/**
 * `npm run bench:injection`: the injection suite (42 scenarios in four
 * AgentDojo-style domains, scripts/injection/domains/), one line per
 * configuration, with the injections and then on clean runs:
 *
 *   undefended: attacks succeeded 42/42, benign tasks completed 42/42
 *
 * `--details` also lists, per line, the scenarios whose attack succeeded or
 * whose task was not completed.
 */
import { formatRow, runSuite } from './suite.ts';

const details = process.argv.includes('--details');
for (const row of await runSuite()) {
  console.log(formatRow(row));
  if (details && row.attacked.length > 0) console.log(`  attacked: ${row.attacked.join(', ')}`);
  if (details && row.failed.length > 0) console.log(`  not completed: ${row.failed.join(', ')}`);
}
