// The offline shell (issue 14): a 10-stage pipeline (cat, grep, awk, sed, tr, sort, uniq, sort, head, wc) over a
// 10,000-line file, in just-bash over a workspace, run in the page by the app's own bench chunk
// (`window.__tabcode.shellBench`, the same code the unit test checks). Target: ≤ 500 ms.

/** `shellPipelineMs_10Stages10kLines` (median of five warm runs) and the first run, which loads just-bash. */
export async function runtimeShell(page) {
  const figures = await page.evaluate(async () => {
    const bench = await window.__tabcode.shellBench()
    return bench.measurePipeline(5)
  })
  if (figures.exitCode !== 0 || figures.output !== '50\n') {
    throw new Error(`verification failed: the pipeline answered ${JSON.stringify(figures.output)} with status ${figures.exitCode}, not "50"`)
  }
  return { shellPipelineMs_10Stages10kLines: figures.medianMs, shellPipelineFirstMs: figures.firstMs }
}
