import { WorkspaceError, type ExecOptions, type ExecResult } from '../workspace'
import { messageOf, type ContainerLike, type ContainerProcess } from './container'

// Commands in the container: `jsh -c` on a pseudo-terminal, ended by its exit, a timeout or an abort.

export const EXIT_TIMEOUT = 124
export const EXIT_ABORTED = 130

/** Wide, so tools read whole lines rather than lines wrapped at 80 columns. */
export const EXEC_TERMINAL = { cols: 200, rows: 50 } as const

/**
 * How long the output may trail the exit code. Both come from the StackBlitz frame over separate messages, and a
 * background child (`npm run dev &`) keeps the terminal open for good, so the adapter waits briefly, not for the end.
 */
export const OUTPUT_DRAIN_MS = 100

type Ending = { type: 'exit'; code: number } | { type: 'error'; error: unknown } | { type: 'timeout' } | { type: 'abort' }

export async function execute(
  container: ContainerLike,
  command: string,
  options: ExecOptions,
  directory: (cwd: string | undefined) => string,
): Promise<ExecResult> {
  const { signal, onOutput, timeout } = options
  if (signal?.aborted) return { exitCode: EXIT_ABORTED, output: '', timedOut: false, aborted: true }
  const cwd = directory(options.cwd)
  let process: ContainerProcess
  try {
    process = await container.spawn('jsh', ['-c', command], {
      ...(cwd === '.' ? {} : { cwd }),
      ...(options.env ? { env: options.env } : {}),
      terminal: { ...EXEC_TERMINAL },
    })
  } catch (error) {
    throw new WorkspaceError('unavailable', cwd, `The WebContainer shell could not start: ${messageOf(error)}`)
  }

  let output = ''
  let open = true
  // Read to the end even after the result is in, so a background child cannot back the stream up; its output is dropped.
  const piped = process.output
    .pipeTo(
      new WritableStream({
        write(chunk) {
          if (!open) return
          output += chunk
          onOutput?.(chunk)
        },
      }),
    )
    .catch(() => {})

  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort: (() => void) | undefined
  const ending = await new Promise<Ending>((resolve) => {
    process.exit.then((code) => resolve({ type: 'exit', code }), (error: unknown) => resolve({ type: 'error', error }))
    if (timeout !== undefined && timeout > 0) timer = setTimeout(() => resolve({ type: 'timeout' }), timeout)
    if (signal) {
      onAbort = () => resolve({ type: 'abort' })
      signal.addEventListener('abort', onAbort, { once: true })
    }
  })
  clearTimeout(timer)
  if (onAbort) signal?.removeEventListener('abort', onAbort)

  if (ending.type === 'timeout' || ending.type === 'abort') process.kill()
  else await within(piped, OUTPUT_DRAIN_MS)
  open = false

  switch (ending.type) {
    case 'exit':
      return { exitCode: ending.code, output, timedOut: false, aborted: false }
    case 'error':
      return { exitCode: 1, output: `${output}${output && !output.endsWith('\n') ? '\n' : ''}${messageOf(ending.error)}\n`, timedOut: false, aborted: false }
    case 'timeout':
      return { exitCode: EXIT_TIMEOUT, output, timedOut: true, aborted: false }
    case 'abort':
      return { exitCode: EXIT_ABORTED, output, timedOut: false, aborted: true }
  }
}

/** Waits for `promise`, but no longer than `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}
