/**
 * Lists of values filed per object (a handler a built-in made), kept as
 * long as the object is: `file` returns the object, `of` its list (empty
 * when nothing was filed).
 */
export function listsByObject<VALUE>(): {
  file<OWNER extends object>(owner: OWNER, values: readonly VALUE[]): OWNER;
  of(owner: object): readonly VALUE[];
} {
  const lists = new WeakMap<object, readonly VALUE[]>();
  return {
    file(owner, values) {
      if (values.length > 0) lists.set(owner, values);
      return owner;
    },
    of: (owner) => lists.get(owner) ?? [],
  };
}
