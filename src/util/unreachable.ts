/** The `default` of an exhaustive switch: a compile error when a case is missing. */
export function unreachable(value: never): never {
  throw new Error(`Unexpected value ${JSON.stringify(value)}`);
}
