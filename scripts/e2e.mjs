#!/usr/bin/env node
// `npm run test:e2e`: check for a browser, `vite build`, then `playwright test` (extra arguments passed through):
//   npm run test:e2e -- e2e/foo.spec.ts --headed
import { e2eSteps, finish } from './steps.mjs'

await e2eSteps(1, 3, process.argv.slice(2))
finish(0)
