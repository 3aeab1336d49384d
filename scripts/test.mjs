#!/usr/bin/env node
// `npm test`: typecheck, import cycles, unit tests (the layers test among them), then the end-to-end suite against a production build.
// Stops at the first failing step with its exit code. Extra arguments go to `playwright test`:
//   npm test -- e2e/foo.spec.ts
import { e2eSteps, finish, heading, run, runNode } from './steps.mjs'

const args = process.argv.slice(2)
const TOTAL = 6

heading(1, TOTAL, 'typecheck', 'tsc --noEmit -p .')
await run('typecheck', 'tsc', ['--noEmit', '-p', '.'])

heading(2, TOTAL, 'import cycles', 'node scripts/check-cycles.mjs')
await runNode('import cycles', 'scripts/check-cycles.mjs')

heading(3, TOTAL, 'unit tests', 'vitest run')
await run('unit tests', 'vitest', ['run'])

await e2eSteps(4, TOTAL, args)
finish(0)
