import type { Tokens } from '../../../core/schema'
import { formatNumber } from './number'

/**
 * Money as people read model bills: sub-cent costs keep four decimals (a step often costs $0.0012), anything from
 * ten dollars up keeps two. Costs below the smallest shown digit say so instead of rounding to a misleading zero.
 */
export function formatCost(cost: number): string {
  if (!Number.isFinite(cost) || cost <= 0) return '$0.0000'
  if (cost < 0.0001) return '<$0.0001'
  if (cost < 10) return `$${cost.toFixed(4)}`
  return `$${cost.toFixed(2)}`
}

/** Token counts in a narrow column: 950, 1.2k, 12k, 1.2M. */
export function formatTokenCount(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '0'
  if (count < 1000) return String(Math.round(count))
  if (count < 10_000) return `${trimZero((count / 1000).toFixed(1))}k`
  if (count < 1_000_000) return `${Math.round(count / 1000)}k`
  if (count < 10_000_000) return `${trimZero((count / 1_000_000).toFixed(1))}M`
  return `${Math.round(count / 1_000_000)}M`
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text
}

export interface TokenSegment {
  label: string
  value: string
  /** The exact count, for a tooltip. */
  exact: number
}

/**
 * The parts of a token total worth a glance: input and output always, reasoning and cache only when they happened,
 * so a plain chat turn stays one short line.
 */
export function tokenSegments(tokens: Tokens): TokenSegment[] {
  const segment = (label: string, count: number): TokenSegment => ({ label, value: formatTokenCount(count), exact: count })
  const segments = [segment('in', tokens.input), segment('out', tokens.output)]
  if (tokens.reasoning > 0) segments.push(segment('reasoning', tokens.reasoning))
  if (tokens.cache.read > 0) segments.push(segment('cache read', tokens.cache.read))
  if (tokens.cache.write > 0) segments.push(segment('cache write', tokens.cache.write))
  return segments
}

/** One line for screen readers and tooltips: "1,234 input, 56 output, 0 reasoning, 10 cache read, 0 cache write tokens". */
export function describeTokens(tokens: Tokens): string {
  const number = (count: number) => formatNumber(Math.round(count))
  return (
    `${number(tokens.input)} input, ${number(tokens.output)} output, ${number(tokens.reasoning)} reasoning, ` +
    `${number(tokens.cache.read)} cache read, ${number(tokens.cache.write)} cache write tokens`
  )
}

/** A price per million tokens as catalogues write it: $3, $0.15, $0.075, never a float's tail. */
function dollars(price: number): string {
  return `$${Number(price.toFixed(4))}`
}

/**
 * A model's input and output price per million tokens, "$3 / $15 per M", for the model pickers. Nothing for a model
 * priced at nothing both ways: tabcode cannot tell a free local model from one whose price it does not know.
 */
export function formatPricePerMillion(cost: { input: number; output: number } | undefined): string | undefined {
  if (!cost || !Number.isFinite(cost.input) || !Number.isFinite(cost.output)) return undefined
  if (cost.input <= 0 && cost.output <= 0) return undefined
  return `${dollars(cost.input)} / ${dollars(cost.output)} per M`
}
