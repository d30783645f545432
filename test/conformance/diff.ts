/** One place where two observations differ. */
export interface Difference {
  /** e.g. `phases[0].stream[3].delta` */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

const MISSING = '<missing>';

/**
 * Every difference between two normalized values, by path: a missing key
 * differs from a key holding `undefined`, arrays differ by length and items,
 * objects with the same keys in another order differ at `path.<key order>`.
 */
export function diff(expected: unknown, actual: unknown, path = ''): Difference[] {
  if (Object.is(expected, actual)) return [];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const differences: Difference[] = [];
    const length = Math.max(expected.length, actual.length);
    for (let index = 0; index < length; index++) {
      const item = `${path}[${index}]`;
      if (index >= expected.length) differences.push({ path: item, expected: MISSING, actual: actual[index] });
      else if (index >= actual.length) differences.push({ path: item, expected: expected[index], actual: MISSING });
      else differences.push(...diff(expected[index], actual[index], item));
    }
    return differences;
  }
  if (isRecord(expected) && isRecord(actual)) {
    const differences: Difference[] = [];
    const expectedKeys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    for (const key of expectedKeys) {
      const item = `${path}.${key}`;
      if (!(key in actual)) differences.push({ path: item, expected: expected[key], actual: MISSING });
      else differences.push(...diff(expected[key], actual[key], item));
    }
    for (const key of actualKeys) {
      if (!(key in expected)) differences.push({ path: `${path}.${key}`, expected: MISSING, actual: actual[key] });
    }
    const common = expectedKeys.filter((key) => key in actual);
    const commonActual = actualKeys.filter((key) => key in expected);
    if (common.join('\u0000') !== commonActual.join('\u0000')) {
      differences.push({ path: `${path}.<key order>`, expected: common, actual: commonActual });
    }
    return differences;
  }
  return [{ path: path === '' ? '<root>' : path, expected, actual }];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
