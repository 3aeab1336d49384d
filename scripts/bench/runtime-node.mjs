// The offline `node` (issue 14): a one-line `node -e` through the shell, `node`, the file snapshot and the QuickJS
// engine's worker, measured in the page by the app's own bench chunk (`window.__tabcode.nodeBench`).
import { median } from './page.mjs'

export const NODE_EVAL_TARGET_MS = 50
const WARM_RUNS = 20

/** `nodeEvalWarmMs` (target ≤ 50 ms: the median of warm runs) and `nodeEvalColdMs` (the first run, for information). */
export async function runtimeNode(page) {
  const { coldMs, warmMs } = await page.evaluate(async (runs) => {
    const bench = await window.__tabcode.nodeBench()
    return bench.nodeEvalTimes(runs)
  }, WARM_RUNS)
  return { nodeEvalWarmMs: median(warmMs), nodeEvalColdMs: coldMs }
}
