import type { ScriptNode } from 'just-bash'

export interface ShellSyntax {
  /** The shell's own AST of a command line; throws on a syntax error, as the shell would refuse to run it. */
  parse(source: string): ScriptNode
  /** Source text for an AST, as the shell prints it. */
  serialize(script: ScriptNode): string
}

let syntax: Promise<ShellSyntax> | undefined

/**
 * just-bash's parser and printer, loaded with the shell on first use. Its browser bundle exports neither, but a
 * `Bash` instance's `transform` runs both (parse, plugins, print), so a plugin that swaps the tree in prints ours.
 */
export function loadShellSyntax(): Promise<ShellSyntax> {
  syntax ??= import('just-bash').then(({ Bash }) => {
    const parser = new Bash({ cwd: '/' })
    const printer = new Bash({ cwd: '/' })
    let replacement: ScriptNode | undefined
    printer.registerTransformPlugin({ name: 'print', transform: ({ ast }) => ({ ast: replacement ?? ast }) })
    return {
      parse: (source) => parser.transform(source).ast,
      serialize: (script) => {
        replacement = script
        try {
          return printer.transform('true').script
        } finally {
          replacement = undefined
        }
      },
    }
  })
  return syntax
}
