/**
 * The capability table of docs/guarantees.md is `CAPABILITIES`: generated
 * from it by scripts/capability-table.ts, and checked here so the page and
 * the code never differ (rewrite it with
 * `node --experimental-strip-types scripts/capability-table.ts --write`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEGIN, capabilityTable, END, withTable } from '../../scripts/capability-table.ts';

const page = readFileSync(new URL('../../docs/guarantees.md', import.meta.url), 'utf8');

describe('the capability table of docs/guarantees.md', () => {
  it('should be the table generated from CAPABILITIES', () => {
    const start = page.indexOf(BEGIN);
    const end = page.indexOf(END);
    expect(start).toBeGreaterThan(0);
    expect(page.slice(start, end + END.length)).toBe(capabilityTable());
    expect(withTable(page, capabilityTable())).toBe(page);
  });
});
