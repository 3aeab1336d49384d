import { createMemoryWorkspace } from '../../local/memory-workspace'
import { runShell } from '../run'

/** Ten stages: cat, grep, awk, sed, tr, sort, uniq, sort, head, wc. */
export const PIPELINE =
  "cat data.csv | grep -v '^#' | awk -F, '$3 > 10 { print $2 }' | sed 's/item/name/' | tr a-z A-Z | sort | uniq -c | sort -rn | head -n 50 | wc -l"

/** A 10,000-line CSV (a comment line every 100th) whose second column repeats every 97 lines. */
export function tenThousandLines(): string {
  const lines: string[] = []
  for (let index = 0; index < 10_000; index++) {
    lines.push(index % 100 === 0 ? `# block ${index / 100}` : `${index},item-${index % 97},${index % 50}`)
  }
  return `${lines.join('\n')}\n`
}

/**
 * The shell pipeline benchmark, run where it is called (the page, for the benchmark): the first run (which loads
 * just-bash) and the median of the next `repeats`, with the answer to check that the pipeline did its work.
 */
export async function measurePipeline(repeats = 5): Promise<{ firstMs: number; medianMs: number; output: string; exitCode: number }> {
  const fs = createMemoryWorkspace({ 'data.csv': tenThousandLines() })
  const time = async () => {
    const started = performance.now()
    const result = await runShell(PIPELINE, { fs, cwd: fs.root })
    return { ms: performance.now() - started, result }
  }
  const first = await time()
  const runs: number[] = []
  let last = first.result
  for (let run = 0; run < repeats; run++) {
    const next = await time()
    runs.push(next.ms)
    last = next.result
  }
  runs.sort((a, b) => a - b)
  return { firstMs: first.ms, medianMs: runs[runs.length >> 1] ?? first.ms, output: last.output, exitCode: last.exitCode }
}
