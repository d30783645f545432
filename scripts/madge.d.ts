/** The part of madge's API that scripts/check-folder-cycles.ts uses (madge ships no types). */
declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to the base directory) with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string, config?: { readonly fileExtensions?: readonly string[] }): Promise<MadgeResult>;
}
