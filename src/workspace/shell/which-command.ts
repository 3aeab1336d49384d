import type { CommandContext, ExecResult } from 'just-bash'

/**
 * `which` for the offline shell. just-bash's own looks for files in PATH's directories, which its in-memory filesystem
 * fills with stand-ins; the workspace's filesystem holds only the project, so there it found nothing. This one answers
 * from the commands the shell has, at the path just-bash gives them.
 */
export async function whichCommand(args: string[], context: CommandContext): Promise<ExecResult> {
  const silent = args.includes('-s')
  const names = args.filter((arg) => !arg.startsWith('-'))
  const commands = new Set(context.getRegisteredCommands?.() ?? [])
  let stdout = ''
  let missing = false
  for (const name of names) {
    if (commands.has(name)) stdout += `/usr/bin/${name}\n`
    else missing = true
  }
  return { stdout: silent ? '' : stdout, stderr: '', exitCode: missing || names.length === 0 ? 1 : 0 }
}
