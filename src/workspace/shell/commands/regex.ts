import { POSIX_CLASSES } from '../glob-expand'

export type RegexSyntax = 'basic' | 'extended' | 'fixed'

/**
 * A grep/sed pattern as a JavaScript RegExp source. Basic syntax (the default of both) swaps the meaning of
 * escaped and bare `( ) { } | + ?`; both syntaxes get `[[:alpha:]]` classes and `\<`/`\>` word edges.
 */
export function toRegExpSource(pattern: string, syntax: RegexSyntax): string {
  if (syntax === 'fixed') return pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  let source = ''
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!
    if (char === '[') {
      const end = classEnd(pattern, index)
      if (end === -1) {
        source += '\\['
        continue
      }
      source += convertClass(pattern.slice(index, end + 1))
      index = end
    } else if (char === '\\' && index + 1 < pattern.length) {
      const next = pattern[++index]!
      if (next === '<' || next === '>') source += '\\b'
      else if (syntax === 'basic' && '(){}|+?'.includes(next)) source += next
      else source += `\\${next}`
    } else if (syntax === 'basic' && '(){}|+?'.includes(char)) source += `\\${char}`
    else if (char === '*' && (source === '' || source.endsWith('(') || source.endsWith('|') || source === '^')) source += '\\*'
    else if (char === '/') source += '\\/'
    else source += char
  }
  return source
}

/** Where a bracket expression ends: a `]` right after `[` or `[^` is literal, and `[:name:]` is skipped whole. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1
  if (pattern[index] === '^') index++
  if (pattern[index] === ']') index++
  for (; index < pattern.length; index++) {
    if (pattern.startsWith('[:', index)) {
      const close = pattern.indexOf(':]', index + 2)
      if (close !== -1) {
        index = close + 1
        continue
      }
    }
    if (pattern[index] === ']') return index
  }
  return -1
}

function convertClass(text: string): string {
  let body = text.slice(1, -1)
  const negated = body.startsWith('^')
  if (negated) body = body.slice(1)
  let converted = ''
  for (let index = 0; index < body.length; index++) {
    const named = /^\[:(\w+):\]/.exec(body.slice(index))
    if (named) {
      converted += POSIX_CLASSES[named[1]!] ?? ''
      index += named[0].length - 1
    } else if (body[index] === '\\' || (body[index] === ']' && index === 0) || body[index] === '[') converted += `\\${body[index]}`
    else converted += body[index]
  }
  return `[${negated ? '^' : ''}${converted}]`
}
