import { resolveIn, type CommandContext, type CommandHandler } from './types'

class TestError extends Error {}

/** `test EXPR`, `[ EXPR ]` and a simple `[[ EXPR ]]` (no `&&`/`||` inside; use -a/-o). Status 0 true, 1 false, 2 error. */
export const test: CommandHandler = async (context) => {
  const args = [...context.args]
  const closing = context.name === '[' ? ']' : context.name === '[[' ? ']]' : undefined
  if (closing) {
    if (args.at(-1) !== closing) {
      context.stderr.write(`${context.name}: missing \`${closing}'\n`)
      return 2
    }
    args.pop()
  }
  try {
    return (await new TestParser(args, context, context.name === '[[').evaluate()) ? 0 : 1
  } catch (error) {
    context.stderr.write(`${context.name}: ${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
}

const UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-z', '-n', '-L', '-h'])
const BINARY = new Set(['=', '==', '!=', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '<', '>', '=~', '-nt', '-ot'])

class TestParser {
  private index = 0

  constructor(
    private readonly args: string[],
    private readonly context: CommandContext,
    private readonly extended: boolean,
  ) {}

  async evaluate(): Promise<boolean> {
    if (this.args.length === 0) return false
    const result = await this.or()
    if (this.index < this.args.length) throw new TestError(`${this.args[this.index]}: unexpected argument`)
    return result
  }

  private async or(): Promise<boolean> {
    let result = await this.and()
    while (this.args[this.index] === '-o' || (this.extended && this.args[this.index] === '||')) {
      this.index++
      const right = await this.and()
      result = result || right
    }
    return result
  }

  private async and(): Promise<boolean> {
    let result = await this.not()
    while (this.args[this.index] === '-a' || (this.extended && this.args[this.index] === '&&')) {
      this.index++
      const right = await this.not()
      result = result && right
    }
    return result
  }

  private async not(): Promise<boolean> {
    // A lone `!` or one followed only by a binary test's operands is negation; `! = x` compares "!".
    if (this.args[this.index] === '!' && this.index + 1 < this.args.length && !BINARY.has(this.args[this.index + 1]!)) {
      this.index++
      return !(await this.not())
    }
    return this.primary()
  }

  private async primary(): Promise<boolean> {
    const token = this.args[this.index]
    if (token === undefined) throw new TestError('argument expected')
    if (token === '(' ) {
      this.index++
      const result = await this.or()
      if (this.args[this.index++] !== ')') throw new TestError("missing `)'")
      return result
    }
    const operator = this.args[this.index + 1]
    if (operator !== undefined && BINARY.has(operator) && this.index + 2 < this.args.length) {
      const right = this.args[this.index + 2]!
      this.index += 3
      return this.binary(token, operator, right)
    }
    if (UNARY.has(token) && this.index + 1 < this.args.length) {
      const operand = this.args[this.index + 1]!
      this.index += 2
      return this.unary(token, operand)
    }
    this.index++
    return token !== ''
  }

  private async unary(operator: string, operand: string): Promise<boolean> {
    if (operator === '-z') return operand === ''
    if (operator === '-n') return operand !== ''
    const stat = await this.context.fs.stat(resolveIn(this.context, operand))
    switch (operator) {
      case '-f':
        return stat?.type === 'file'
      case '-d':
        return stat?.type === 'directory'
      case '-s':
        return stat !== undefined && stat.size > 0
      case '-x':
        return stat?.type === 'directory'
      case '-L':
      case '-h':
        return false
      default:
        return stat !== undefined
    }
  }

  private async binary(left: string, operator: string, right: string): Promise<boolean> {
    switch (operator) {
      case '=':
      case '==':
        return this.extended ? globMatch(right, left) : left === right
      case '!=':
        return this.extended ? !globMatch(right, left) : left !== right
      case '<':
        return left < right
      case '>':
        return left > right
      case '=~':
        return new RegExp(right).test(left)
      case '-nt':
      case '-ot': {
        const a = (await this.context.fs.stat(resolveIn(this.context, left)))?.modified ?? -Infinity
        const b = (await this.context.fs.stat(resolveIn(this.context, right)))?.modified ?? -Infinity
        return operator === '-nt' ? a > b : a < b
      }
    }
    const a = integer(left)
    const b = integer(right)
    switch (operator) {
      case '-eq':
        return a === b
      case '-ne':
        return a !== b
      case '-lt':
        return a < b
      case '-le':
        return a <= b
      case '-gt':
        return a > b
      default:
        return a >= b
    }
  }
}

function integer(text: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) throw new TestError(`${text}: integer expression expected`)
  return Number(text)
}

/** `[[ x == pattern ]]` compares against a glob pattern. */
function globMatch(pattern: string, text: string): boolean {
  const source = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${source}$`, 's').test(text)
}
