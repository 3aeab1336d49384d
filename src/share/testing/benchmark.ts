import { measureShareLink } from '../link'
import { realisticTranscript } from './realistic-session'

/** The base the benchmark measures with: the preview server's address, as long as a typical deployment's. */
export const BENCHMARK_BASE = 'http://127.0.0.1:4173/'

/**
 * `shareLinkChars_100TextMessages`: the length of the share link (whole URL) of the realistic 100-message
 * text-only session, with default options. Pure and synchronous, so the benchmark page can call it as is.
 */
export function shareLinkChars100TextMessages(base = BENCHMARK_BASE): number {
  return measureShareLink(realisticTranscript(), { base }).chars
}

export { realisticFixture, tenThousandPartsFile } from './bench-data'
