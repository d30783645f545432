/**
 * Fails when the folders of `src/` import each other in a ring: for every
 * import of one file by another (type imports included, as madge reads
 * them), the importer's folder depends on the imported file's folder, and
 * no folder may depend on itself through others. Prints each ring with the
 * file imports that make it. Run by `npm run check:cycles` after madge's own
 * file-level check.
 *
 * Usage: node --experimental-strip-types scripts/check-folder-cycles.ts [dir]
 */
import madge from 'madge';

const root = process.argv[2] ?? 'src';
const graph = (await madge(root, { fileExtensions: ['ts'] })).obj();

/** A file's folder under the root: `run/run.ts` → `run`; a file at the root is its own. */
const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] as string) : file);

// folder → folder it imports → the file imports that make the edge
const edges = new Map<string, Map<string, string[]>>();
for (const [file, imports] of Object.entries(graph)) {
  const from = folderOf(file);
  for (const imported of imports) {
    const to = folderOf(imported);
    if (to === from) continue;
    const targets = edges.get(from) ?? new Map<string, string[]>();
    edges.set(from, targets);
    targets.set(to, [...(targets.get(to) ?? []), `${file} -> ${imported}`]);
  }
}

// Tarjan's strongly connected components: a component of more than one folder is a ring
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const rings: string[][] = [];
let next = 0;
const visit = (folder: string): void => {
  index.set(folder, next);
  low.set(folder, next);
  next++;
  stack.push(folder);
  onStack.add(folder);
  for (const target of edges.get(folder)?.keys() ?? []) {
    if (!index.has(target)) {
      visit(target);
      low.set(folder, Math.min(low.get(folder) as number, low.get(target) as number));
    } else if (onStack.has(target)) {
      low.set(folder, Math.min(low.get(folder) as number, index.get(target) as number));
    }
  }
  if (low.get(folder) !== index.get(folder)) return;
  const component: string[] = [];
  let member: string | undefined;
  do {
    member = stack.pop() as string;
    onStack.delete(member);
    component.push(member);
  } while (member !== folder);
  if (component.length > 1) rings.push(component.sort());
};
for (const folder of new Set(Object.keys(graph).map(folderOf))) if (!index.has(folder)) visit(folder);

if (rings.length === 0) {
  console.log(`No folder of ${root}/ imports itself back through other folders (${edges.size} folders with imports).`);
} else {
  for (const ring of rings) {
    console.error(`These folders of ${root}/ import each other in a ring: ${ring.join(', ')}`);
    for (const from of ring) {
      for (const [to, imports] of edges.get(from) ?? []) {
        if (ring.includes(to)) console.error(`  ${from} -> ${to}: ${imports.join('; ')}`);
      }
    }
  }
  process.exitCode = 1;
}
