/**
 * `npm run bench:injection`: the scripted injection suite (42 scenarios in
 * four AgentDojo-style domains, scripts/injection/domains/), then the adaptive
 * attacker (20 attacks that know the policy, scripts/injection/adaptive/), one
 * line per configuration, with the injections and then on clean runs, and
 * with `confirm` a line for how often a person was asked:
 *
 *   undefended: attacks succeeded 42/42, benign tasks completed 42/42
 *   defended (flowPolicy confirm, human refuses): human asks per benign task 1.05 (44 asks in 42 tasks)
 *
 * `--details` also lists, per line, the scenarios whose attack succeeded or
 * whose task was not completed.
 */
import { runAdaptive } from './adaptive/run-adaptive.ts';
import { CONFIGURATIONS, formatRow, runSuite } from './suite.ts';

const details = process.argv.includes('--details');
for (const row of [...(await runSuite()), ...(await runAdaptive(CONFIGURATIONS))]) {
  console.log(formatRow(row));
  if (details && row.attacked.length > 0) console.log(`  attacked: ${row.attacked.join(', ')}`);
  if (details && row.failed.length > 0) console.log(`  not completed: ${row.failed.join(', ')}`);
}
