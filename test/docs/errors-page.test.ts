/**
 * docs/errors.md says what each error is called: its table names every error class the package
 * exports, with the `name` and the `code`s its instances have, and the codes are all of
 * `InterventionsErrorCode`; the warning's name and codes are what the page says too.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(`${root}/docs/errors.md`, 'utf8');

/** The page's table of errors: a row per class, with its `name` and its codes. */
const rows = [...page.matchAll(/^\| `(\w+)` \| `(\w+)` \| ([^|]+) \|/gm)].map(([, className, name, codes]) => ({
  className: className ?? '',
  name,
  codes: [...(codes ?? '').matchAll(/'([a-z-]+)'/g)].map((code) => code[1]),
}));

/** The string literals of a union type alias of a source file (read as syntax). */
function unionOf(file: string, alias: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(`${root}/${file}`, 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === alias,
  );
  if (declaration === undefined || !ts.isUnionTypeNode(declaration.type)) throw new Error(`${file}: no union ${alias}`);
  return declaration.type.types.map((type) => (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? type.literal.text : '?'));
}

type ErrorClass = (new (fields: object) => lib.InterventionsError) & { isInstance(value: unknown): boolean };

/** Every error class the package exports (the base class aside). */
const classes = Object.entries(lib as Record<string, unknown>).filter(
  (entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && entry[1].prototype instanceof lib.InterventionsError,
);

/** An instance of an error class, with a value for every field any of them takes. */
const instanceOf = (ErrorClass: ErrorClass) =>
  new ErrorClass({
    ...{ message: 'm', handlerName: 'h', lifecycle: 'beforeToolCall', received: 1, reason: 'timeout', timeoutMs: 1, approvalId: 'a' },
    ...{ toolCallId: 't', signature: 'missing', key: 'k', guard: 'g', kind: 'preToolCall', path: 'agent', instead: 'i', event: 'e' },
    ...{ hook: 'h', owner: 'o', option: 'x', known: [], toolName: 'n', decision: 'deny' },
  });

describe('docs/errors.md', () => {
  it('should have a row for every error class the package exports, and none for another', () => {
    expect(classes.length).toBeGreaterThanOrEqual(14);
    expect(rows.map((row) => row.className).sort()).toEqual(classes.map(([className]) => className).sort());
  });

  it.each(classes)("should give %s's name and code as its instances have them", (className, ErrorClass) => {
    const error = instanceOf(ErrorClass);
    const row = rows.find((entry) => entry.className === className);
    expect(error.name).toBe(row?.name);
    expect(row?.codes).toContain(error.code);
    // isInstance tells its own class from the others
    for (const [other, OtherClass] of classes) expect(OtherClass.isInstance(error), `${other}.isInstance`).toBe(other === className);
  });

  it('should list every code of InterventionsErrorCode, each for one class', () => {
    const listed = rows.flatMap((row) => row.codes);
    expect([...listed].sort()).toEqual(unionOf('src/errors/interventions-error.ts', 'InterventionsErrorCode').sort());
  });

  it("should give the warning's name and codes as it has them", () => {
    const warning = new lib.InterventionsWarning({ code: 'approval-ledger-in-memory', message: 'm' });
    const said = /`InterventionsWarning` \(`name` `(\w+)`, `code` ([^)]*)\)/.exec(page.replace(/\n/g, ' '));
    expect(said?.[1]).toBe(warning.name);
    expect([...(said?.[2] ?? '').matchAll(/'([a-z-]+)'/g)].map((code) => code[1]).sort()).toEqual(
      unionOf('src/errors/interventions-warning.ts', 'InterventionsWarningCode').sort(),
    );
  });
});
