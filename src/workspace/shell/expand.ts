import { evaluateArithmetic } from './arithmetic'
import type { Script, VariableModifier, Word, WordPart } from './ast'
import { globSource } from './glob-expand'

/** What expansion needs from the running shell; injected so expansion stays testable without one. */
export interface Expander {
  /** A variable's value, special ones (`?`, `#`, `1`…) included; undefined when unset. */
  variable(name: string): string | undefined
  /** The output of a command substitution. */
  substitute(script: Script): Promise<string>
  /** Paths matching a glob (quoted characters escaped with a backslash), sorted; empty when nothing matches. */
  glob(pattern: string): Promise<string[]>
  /** `${NAME:=word}` sets the variable. */
  assign(name: string, value: string): void
}

interface Piece {
  value: string
  quoted: boolean
}

const GLOB_CHARS = /[*?[]/

/** Words to arguments, as a shell does: braces, variables and substitutions, field splitting, then globs. */
export async function expandWords(words: Word[], expander: Expander, options?: { glob?: boolean }): Promise<string[]> {
  const result: string[] = []
  for (const word of words.flatMap(expandBraces)) {
    for (const field of await fieldsOf(word, expander)) {
      if (options?.glob === false) result.push(field.map((piece) => piece.value).join(''))
      else result.push(...(await globField(field, expander)))
    }
  }
  return result
}

/** One word to one string, without splitting or globbing: redirection targets, assignments, here-documents. */
export async function expandWord(word: Word, expander: Expander): Promise<string> {
  let value = ''
  for (const part of word.parts) value += await valueOf(part, expander)
  return value
}

async function valueOf(part: WordPart, expander: Expander): Promise<string> {
  if (part.type === 'text') return part.value
  if (part.type === 'command') return (await expander.substitute(part.script)).replace(/\n+$/, '')
  if (part.type === 'arithmetic') return String(evaluateArithmetic(await expandWord(part.expression, expander), expander.variable))
  return modify(part.name, expander.variable(part.name), part.modifier, expander)
}

async function modify(name: string, value: string | undefined, modifier: VariableModifier | undefined, expander: Expander): Promise<string> {
  if (!modifier) return value ?? ''
  const text = value ?? ''
  switch (modifier.type) {
    case 'length':
      return String([...text].length)
    case 'default': {
      if (value !== undefined && !(modifier.colon && value === '')) return value
      const fallback = await expandWord(modifier.word, expander)
      if (modifier.assign) expander.assign(name, fallback)
      return fallback
    }
    case 'alternative':
      return value === undefined || (modifier.colon && value === '') ? '' : expandWord(modifier.word, expander)
    case 'substring': {
      const chars = [...text].slice(modifier.offset)
      return (modifier.length === undefined ? chars : chars.slice(0, modifier.length)).join('')
    }
    case 'trim': {
      const pattern = new RegExp(`^${globSource(await expandWord(modifier.pattern, expander), true)}$`)
      // Candidates from the shortest cut to the longest, or the other way round.
      const cuts = Array.from({ length: text.length + 1 }, (_, index) => index)
      if (modifier.longest) cuts.reverse()
      for (const cut of cuts) {
        const removed = modifier.from === 'start' ? text.slice(0, cut) : text.slice(text.length - cut)
        if (pattern.test(removed)) return modifier.from === 'start' ? text.slice(cut) : text.slice(0, text.length - cut)
      }
      return text
    }
    case 'replace': {
      const source = globSource(await expandWord(modifier.pattern, expander), true)
      if (source === '') return text
      const replacement = await expandWord(modifier.replacement, expander)
      return text.replace(new RegExp(source, modifier.all ? 'g' : ''), () => replacement)
    }
  }
}

/** Splits unquoted expansions on blanks; an unquoted expansion that is empty disappears, `""` stays an argument. */
async function fieldsOf(word: Word, expander: Expander): Promise<Piece[][]> {
  const fields: Piece[][] = []
  let current: Piece[] | undefined
  for (const part of word.parts) {
    const value = await valueOf(part, expander)
    if (part.type === 'text' || part.quoted) {
      ;(current ??= []).push({ value, quoted: part.quoted })
      continue
    }
    for (const [index, piece] of value.split(/[ \t\n]+/).entries()) {
      if (index > 0 && current) {
        fields.push(current)
        current = undefined
      }
      if (piece) (current ??= []).push({ value: piece, quoted: false })
    }
  }
  if (current) fields.push(current)
  return fields
}

async function globField(field: Piece[], expander: Expander): Promise<string[]> {
  const literal = field.map((piece) => piece.value).join('')
  if (!field.some((piece) => !piece.quoted && GLOB_CHARS.test(piece.value))) return [literal]
  const pattern = field.map((piece) => (piece.quoted ? piece.value.replace(/[*?[\]\\]/g, '\\$&') : piece.value)).join('')
  const matches = await expander.glob(pattern)
  // Without a match the pattern stays as written, as bash does by default.
  return matches.length > 0 ? matches : [literal]
}

/** `a{b,c}d` → `abd acd`, `{1..3}` → `1 2 3`; only in unquoted text. */
export function expandBraces(word: Word): Word[] {
  for (const [index, part] of word.parts.entries()) {
    if (part.type !== 'text' || part.quoted) continue
    const found = findBrace(part.value)
    if (!found) continue
    return found.alternatives.flatMap((alternative) =>
      expandBraces({
        parts: [
          ...word.parts.slice(0, index),
          { type: 'text', value: found.prefix + alternative + found.suffix, quoted: false },
          ...word.parts.slice(index + 1),
        ],
      }),
    )
  }
  return [word]
}

function findBrace(text: string): { prefix: string; alternatives: string[]; suffix: string } | undefined {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0
    const commas: number[] = []
    for (let index = start; index < text.length; index++) {
      const char = text[index]
      if (char === '{') depth++
      else if (char === ',' && depth === 1) commas.push(index)
      else if (char === '}' && --depth === 0) {
        const body = text.slice(start + 1, index)
        const alternatives = commas.length > 0 ? splitAt(text, start, index, commas) : rangeOf(body)
        if (alternatives) return { prefix: text.slice(0, start), alternatives, suffix: text.slice(index + 1) }
        break
      }
    }
  }
  return undefined
}

function splitAt(text: string, start: number, end: number, commas: number[]): string[] {
  const bounds = [start, ...commas, end]
  return bounds.slice(1).map((bound, index) => text.slice(bounds[index]! + 1, bound))
}

function rangeOf(body: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)$/.exec(body)
  if (numbers) return range(Number(numbers[1]), Number(numbers[2])).map(String)
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body)
  if (letters) return range(letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0)).map((code) => String.fromCharCode(code))
  return undefined
}

function range(from: number, to: number): number[] {
  const step = from <= to ? 1 : -1
  const values: number[] = []
  for (let value = from; step > 0 ? value <= to : value >= to; value += step) values.push(value)
  return values
}
