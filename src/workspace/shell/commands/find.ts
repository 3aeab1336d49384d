import type { FileStat } from '../../workspace'
import { globSource, segmentRegExp } from '../glob-expand'
import { resolveIn, type CommandContext, type CommandHandler } from './types'

type Test = (entry: Visit) => boolean | Promise<boolean>

interface Visit {
  /** As printed: the starting point as given, then `/name` for each level. */
  display: string
  stat: FileStat
  depth: number
}

interface Expression {
  test: Test
  /** Whether the expression prints or runs something itself; otherwise `-print` is implied. */
  acts: boolean
}

class FindError extends Error {}

/**
 * `find [path…] [expression]`: tests `-name -iname -path -type -empty -newer`, operators `! -not -a -o ( )`,
 * options `-maxdepth -mindepth`, actions `-print -print0 -delete -exec … {} ;|+ -prune -quit`.
 */
export const find: CommandHandler = async (context) => {
  const firstExpression = context.args.findIndex((arg) => arg.startsWith('-') || arg === '!' || arg === '(')
  const starts = firstExpression === -1 ? context.args : context.args.slice(0, firstExpression)
  const tokens = firstExpression === -1 ? [] : context.args.slice(firstExpression)
  const limits = { maxDepth: Infinity, minDepth: 0 }
  const batches: { argv: string[]; paths: string[] }[] = []
  const state = { status: 0, quit: false, pruned: new Set<string>() }
  let expression: Expression
  try {
    expression = new FindParser(tokens, limits, context, batches, state).parse()
  } catch (error) {
    context.stderr.write(`find: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  for (const start of starts.length > 0 ? starts : ['.']) {
    const stat = await context.fs.stat(resolveIn(context, start))
    if (!stat) {
      context.stderr.write(`find: '${start}': No such file or directory\n`)
      state.status = 1
      continue
    }
    const stack: Visit[] = [{ display: start, stat, depth: 0 }]
    while (stack.length > 0 && !state.quit) {
      if (context.signal.aborted) return 130
      const visit = stack.pop()!
      if (visit.depth >= limits.minDepth) {
        const matched = await expression.test(visit)
        if (matched && !expression.acts) context.stdout.write(`${visit.display}\n`)
      }
      if (visit.stat.type !== 'directory' || visit.depth >= limits.maxDepth || state.pruned.has(visit.stat.path)) continue
      const children = await context.fs.list(visit.stat.path).catch(() => [])
      for (const child of children.reverse()) {
        const display = visit.display.endsWith('/') ? `${visit.display}${child.name}` : `${visit.display}/${child.name}`
        stack.push({ display, stat: child, depth: visit.depth + 1 })
      }
    }
  }
  for (const batch of batches) {
    if (batch.paths.length === 0) continue
    const status = await context.shell.run([...batch.argv, ...batch.paths], context)
    if (status !== 0) state.status = 1
  }
  return state.status
}

/** Recursive descent over find's expression language: `-o` binds looser than (implicit) `-a`, `!` tighter. */
class FindParser {
  private index = 0
  private acts = false

  constructor(
    private readonly tokens: string[],
    private readonly limits: { maxDepth: number; minDepth: number },
    private readonly context: CommandContext,
    private readonly batches: { argv: string[]; paths: string[] }[],
    private readonly state: { status: number; quit: boolean; pruned: Set<string> },
  ) {}

  parse(): Expression {
    if (this.tokens.length === 0) return { test: () => true, acts: false }
    const test = this.or()
    if (this.index < this.tokens.length) throw new FindError(`paths must precede expression: '${this.tokens[this.index]}'`)
    return { test, acts: this.acts }
  }

  private or(): Test {
    let left = this.and()
    while (this.peek() === '-o' || this.peek() === '-or') {
      this.index++
      const first = left
      const second = this.and()
      left = async (visit) => (await first(visit)) || second(visit)
    }
    return left
  }

  private and(): Test {
    let left = this.not()
    for (let token = this.peek(); token !== undefined && token !== '-o' && token !== '-or' && token !== ')'; token = this.peek()) {
      if (token === '-a' || token === '-and') this.index++
      const first = left
      const second = this.not()
      left = async (visit) => (await first(visit)) && second(visit)
    }
    return left
  }

  private not(): Test {
    const token = this.peek()
    if (token === '!' || token === '-not') {
      this.index++
      const inner = this.not()
      return async (visit) => !(await inner(visit))
    }
    if (token === '(') {
      this.index++
      const inner = this.or()
      if (this.tokens[this.index++] !== ')') throw new FindError("invalid expression; expected ')'")
      return inner
    }
    return this.primary()
  }

  private primary(): Test {
    const token = this.tokens[this.index++]
    if (token === undefined) throw new FindError('expected an expression')
    const value = () => {
      const next = this.tokens[this.index++]
      if (next === undefined) throw new FindError(`missing argument to \`${token}'`)
      return next
    }
    switch (token) {
      case '-name':
      case '-iname': {
        const pattern = segmentRegExp(value(), token === '-iname' ? 'i' : '')
        return (visit) => pattern.test(visit.display === '/' ? '/' : visit.display.replace(/\/+$/, '').split('/').at(-1)!)
      }
      case '-path':
      case '-wholename':
      case '-ipath': {
        // Unlike -name, `*` here also matches `/`, as fnmatch does without FNM_PATHNAME.
        const pattern = new RegExp(`^${globSource(value(), true)}$`, token === '-ipath' ? 'i' : '')
        return (visit) => pattern.test(visit.display)
      }
      case '-type': {
        const kind = value()
        if (kind !== 'f' && kind !== 'd') return () => false
        return (visit) => visit.stat.type === (kind === 'f' ? 'file' : 'directory')
      }
      case '-maxdepth':
      case '-mindepth': {
        const depth = Number(value())
        if (!Number.isInteger(depth) || depth < 0) throw new FindError(`invalid argument to ${token}`)
        if (token === '-maxdepth') this.limits.maxDepth = depth
        else this.limits.minDepth = depth
        return () => true
      }
      case '-empty':
        return async (visit) =>
          visit.stat.type === 'file' ? visit.stat.size === 0 : (await this.context.fs.list(visit.stat.path)).length === 0
      case '-newer': {
        const reference = value()
        const path = resolveIn(this.context, reference)
        return async (visit) => visit.stat.modified > ((await this.context.fs.stat(path))?.modified ?? Infinity)
      }
      case '-true':
        return () => true
      case '-false':
        return () => false
      case '-print':
      case '-print0': {
        this.acts = true
        const end = token === '-print' ? '\n' : '\0'
        return (visit) => {
          this.context.stdout.write(visit.display + end)
          return true
        }
      }
      case '-prune':
        return (visit) => {
          this.state.pruned.add(visit.stat.path)
          return true
        }
      case '-quit':
        return () => {
          this.state.quit = true
          return true
        }
      case '-delete':
        this.acts = true
        return async (visit) => {
          await this.context.fs.remove(visit.stat.path, { recursive: true })
          this.state.pruned.add(visit.stat.path)
          return true
        }
      case '-exec':
      case '-execdir':
        return this.exec(token)
      default:
        throw new FindError(`unknown predicate \`${token}'`)
    }
  }

  private exec(token: string): Test {
    this.acts = true
    const argv: string[] = []
    for (;;) {
      const next = this.tokens[this.index++]
      if (next === undefined) throw new FindError(`missing argument to \`${token}'`)
      if (next === ';') break
      if (next === '+' && argv.at(-1) === '{}') {
        const batch = { argv: argv.slice(0, -1), paths: [] as string[] }
        this.batches.push(batch)
        return (visit) => {
          batch.paths.push(visit.display)
          return true
        }
      }
      argv.push(next)
    }
    if (argv.length === 0) throw new FindError(`missing argument to \`${token}'`)
    return async (visit) => {
      const status = await this.context.shell.run(
        argv.map((arg) => arg.replaceAll('{}', visit.display)),
        this.context,
      )
      return status === 0
    }
  }

  private peek(): string | undefined {
    return this.tokens[this.index]
  }
}
