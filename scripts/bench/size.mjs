// `--smoke` (CI): every section runs once on small sizes, so a section that breaks fails the run; its figures mean
// nothing and no target is judged. Without it, the sizes BENCHMARKS.md reports.
export const SMOKE = process.argv.includes('--smoke')

/** The full run's size, or the smoke run's. */
export const size = (full, smoke) => (SMOKE ? smoke : full)
