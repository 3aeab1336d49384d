import { dirname, isInside, relativePath, resolvePath } from '../workspace/path'
import type { ToolContext } from './tool'

/** A path the model gave, made absolute: relative paths are taken from the workspace root. */
export function resolveToolPath(context: Pick<ToolContext, 'workspace'>, path: string): string {
  return resolvePath(context.workspace.root, path)
}

/** The path permission rules see: relative to the workspace root (with `..` segments when outside it). */
export function permissionPath(context: Pick<ToolContext, 'workspace'>, path: string): string {
  return relativePath(context.workspace.root, path)
}

/**
 * Asks `external_directory` before a tool touches `target` outside the workspace (opencode's
 * `assertExternalDirectory`): the pattern, also remembered by "always", is the containing directory followed by
 * `/*`; for a directory target, the directory itself.
 */
export async function assertExternalDirectory(
  context: Pick<ToolContext, 'workspace' | 'ask'>,
  target: string,
  options?: { kind?: 'file' | 'directory' },
): Promise<void> {
  const path = resolveToolPath(context, target)
  if (isInside(context.workspace.root, path)) return
  const directory = options?.kind === 'directory' ? path : dirname(path)
  const glob = directory === '/' ? '/*' : `${directory}/*`
  await context.ask({
    permission: 'external_directory',
    patterns: [glob],
    always: [glob],
    metadata: { filepath: path, parentDir: directory },
  })
}
