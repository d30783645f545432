/**
 * A module loaded on demand, once: `load` (an `import()`) runs at the first
 * call; every later call gives the load under way, then the module itself,
 * synchronously. An `import()` of a module already loaded still goes through
 * the module loader, and allocates about 8 KB, on every call: code on a
 * step's path loads through this instead. A load that fails is tried again at
 * the next call.
 */
export function onDemand<MODULE>(load: () => Promise<MODULE>): () => MODULE | Promise<MODULE> {
  let loaded: MODULE | undefined;
  let loading: Promise<MODULE> | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    loading ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
