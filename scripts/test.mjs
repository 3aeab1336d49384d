#!/usr/bin/env node
// `npm test`: typecheck, import cycles, unit tests (the layers test among them), the end-to-end suite against a
// production build, then every benchmark section once on small sizes against that build (`npm run bench -- --smoke`).
// Stops at the first failing step with its exit code. Extra arguments go to `playwright test` (and skip the bench
// smoke, which is for the whole run):
//   npm test -- e2e/foo.spec.ts
import { e2eSteps, finish, heading, run, runNode } from './steps.mjs'

const args = process.argv.slice(2)
const TOTAL = args.length ? 6 : 7

heading(1, TOTAL, 'typecheck', 'tsc --noEmit -p .')
await run('typecheck', 'tsc', ['--noEmit', '-p', '.'])

heading(2, TOTAL, 'import cycles', 'node scripts/check-cycles.mjs')
await runNode('import cycles', 'scripts/check-cycles.mjs')

heading(3, TOTAL, 'unit tests', 'vitest run')
await run('unit tests', 'vitest', ['run'])

await e2eSteps(4, TOTAL, args)

if (!args.length) {
  heading(7, TOTAL, 'bench smoke', 'node scripts/bench.mjs --smoke --no-build')
  await runNode('bench smoke', 'scripts/bench.mjs', ['--smoke', '--no-build'])
}
finish(0)
