// Run first by the repository's scripts that run TypeScript as it is (`npm run demo`, `npm run example`,
// `npm test`): on an older Node they fail with `node: bad option: --experimental-strip-types`, or with a
// test runner error that never names the version. Plain JavaScript without newer syntax: any Node runs it.
const required = [22, 12];
const found = process.versions.node;
const [major, minor] = found.split('.').map(Number);
if (major < required[0] || (major === required[0] && minor < required[1])) {
  const script = process.env.npm_lifecycle_event ? `npm run ${process.env.npm_lifecycle_event}` : 'This';
  console.error(`${script} needs Node.js ${required.join('.')} or later (this is ${found}): install Node 22 or 24 and run it again.`);
  process.exit(1);
}
