import { createMemoryWorkspace } from '../local/memory-workspace'

/**
 * The benchmark's `node -e` figure: a one-line script through the whole offline path (the shell, `node`, a snapshot
 * of a small project, the engine's worker and back), the first run (worker and wasm start-up) and warm runs after it.
 * Loaded in the page only when the benchmark asks for it.
 */
export async function nodeEvalTimes(warmRuns = 20): Promise<{ coldMs: number; warmMs: number[] }> {
  const workspace = createMemoryWorkspace({ 'package.json': '{"name":"bench"}\n', 'src/index.js': 'module.exports = 1\n' })
  const once = async () => {
    const started = performance.now()
    const result = await workspace.exec('node -e "console.log(1 + 1)"', {})
    const ms = performance.now() - started
    if (result.exitCode !== 0 || result.output !== '2\n') throw new Error(`node -e answered ${result.exitCode}: ${result.output}`)
    return ms
  }
  const coldMs = await once()
  const warmMs: number[] = []
  for (let run = 0; run < warmRuns; run++) warmMs.push(await once())
  return { coldMs, warmMs }
}
