/** `$((…))`: integer arithmetic as bash does it, without assignments. */

export class ArithmeticError extends Error {
  override name = 'ArithmeticError'
}

// Longest first, so `**` wins over `*`.
const OPERATORS = [
  ...['**', '<=', '>=', '==', '!=', '&&', '||', '<<', '>>'],
  ...['+', '-', '*', '/', '%', '(', ')', '<', '>', '!', '~', '&', '|', '^', '?', ':'],
]

/** Binary operators by precedence, loosest first. */
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']]

export function evaluateArithmetic(expression: string, variable: (name: string) => string | undefined): number {
  const tokens = tokenize(expression)
  let index = 0
  const peek = () => tokens[index]
  const valueOf = (name: string, depth: number): number => {
    const text = (variable(name) ?? '').trim()
    if (text === '') return 0
    if (/^[A-Za-z_]\w*$/.test(text) && depth < 10) return valueOf(text, depth + 1)
    return toNumber(text)
  }
  const ternary = (): number => {
    const condition = binary(0)
    if (peek() !== '?') return condition
    index++
    const yes = ternary()
    if (tokens[index++] !== ':') throw new ArithmeticError(`${expression}: expected \`:'`)
    const no = ternary()
    return condition !== 0 ? yes : no
  }
  const binary = (level: number): number => {
    if (level === LEVELS.length) return power()
    let left = binary(level + 1)
    for (let operator = peek(); operator !== undefined && LEVELS[level]!.includes(operator); operator = peek()) {
      index++
      left = apply(operator, left, binary(level + 1), expression)
    }
    return left
  }
  const power = (): number => {
    const base = unary()
    if (peek() !== '**') return base
    index++
    return base ** power()
  }
  const unary = (): number => {
    const token = tokens[index++]
    if (token === undefined) throw new ArithmeticError(`${expression}: syntax error: operand expected`)
    if (token === '-') return -unary()
    if (token === '+') return unary()
    if (token === '!') return Number(unary() === 0)
    if (token === '~') return ~unary()
    if (token === '(') {
      const value = ternary()
      if (tokens[index++] !== ')') throw new ArithmeticError(`${expression}: missing \`)'`)
      return value
    }
    if (/^[A-Za-z_]/.test(token)) return valueOf(token, 0)
    if (/^\d/.test(token)) return toNumber(token)
    throw new ArithmeticError(`${expression}: syntax error: operand expected (error token is "${token}")`)
  }
  const result = ternary()
  if (index < tokens.length) throw new ArithmeticError(`${expression}: syntax error (error token is "${tokens[index]}")`)
  return result
}

function tokenize(expression: string): string[] {
  const tokens: string[] = []
  for (let index = 0; index < expression.length; ) {
    const rest = expression.slice(index)
    const blank = /^\s+/.exec(rest)
    if (blank) {
      index += blank[0].length
      continue
    }
    const word = /^(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_]\w*)/.exec(rest)
    if (word) {
      tokens.push(word[0])
      index += word[0].length
      continue
    }
    if (/^(\+\+|--|[-+*/%&|^]?=(?!=))/.test(rest)) throw new ArithmeticError(`${expression}: assignments are not supported`)
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate))
    if (!operator) throw new ArithmeticError(`${expression}: syntax error: invalid arithmetic operator (error token is "${rest}")`)
    tokens.push(operator)
    index += operator.length
  }
  return tokens
}

function toNumber(text: string): number {
  const value = /^0[xX]/.test(text) ? parseInt(text, 16) : /^0\d+$/.test(text) ? parseInt(text, 8) : Number(text)
  if (!Number.isInteger(value)) throw new ArithmeticError(`${text}: syntax error: invalid number`)
  return value
}

function apply(operator: string, left: number, right: number, expression: string): number {
  switch (operator) {
    case '||':
      return Number(left !== 0 || right !== 0)
    case '&&':
      return Number(left !== 0 && right !== 0)
    case '|':
      return left | right
    case '^':
      return left ^ right
    case '&':
      return left & right
    case '==':
      return Number(left === right)
    case '!=':
      return Number(left !== right)
    case '<':
      return Number(left < right)
    case '>':
      return Number(left > right)
    case '<=':
      return Number(left <= right)
    case '>=':
      return Number(left >= right)
    case '<<':
      return left << right
    case '>>':
      return left >> right
    case '+':
      return left + right
    case '-':
      return left - right
    case '*':
      return left * right
    default: {
      if (right === 0) throw new ArithmeticError(`${expression}: division by 0`)
      return operator === '/' ? Math.trunc(left / right) : left % right
    }
  }
}
