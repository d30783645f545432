// Runs one example by name: `npm run example -- guard-a-tool`
const names = [
  'guard-a-tool',
  'guide-a-model',
  'confirm-and-resume',
  'redact-a-result',
  'cache-a-model-call',
  'compact-history',
  'demo',
];
const name = process.argv[2];

if (name === undefined || !names.includes(name)) {
  console.error(`Usage: npm run example -- <name>\nExamples: ${names.join(', ')}`);
  process.exit(1);
}
await import(`./${name}.ts`);
