import ts from 'typescript';

/**
 * Runs a documentation snippet as it is written, with its imports answered
 * from `modules` (specifier → module object: the real package, or a stand-in
 * such as a scripted model for `@ai-sdk/openai`). Resolves to the snippet's
 * exports and the top-level names listed in `expose`, so a test can check
 * what it made.
 */
export async function runSnippet(
  code: string,
  modules: Readonly<Record<string, unknown>>,
  expose: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const { outputText } = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2023 },
  });
  const require = (specifier: string): unknown => {
    if (!(specifier in modules)) throw new Error(`runSnippet: the snippet imports ${specifier}, which the test did not provide`);
    return modules[specifier];
  };
  // an exported name lives on `exports` (TypeScript rewrites its uses), a plain one is a local
  const exposed = expose.map((name) => `${name}: typeof ${name} === 'undefined' ? exports.${name} : ${name}`);
  const body = `${outputText}\nreturn { ...exports, ${exposed.join(', ')} };`;
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...parameters: string[]
  ) => (require: (specifier: string) => unknown, exports: Record<string, unknown>) => Promise<Record<string, unknown>>;
  return new AsyncFunction('require', 'exports', body)(require, {});
}
