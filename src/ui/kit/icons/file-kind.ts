/** The icon families of the file tree, chosen by name: few enough to tell apart at 14px. */
export type FileKind = 'folder' | 'code' | 'markup' | 'style' | 'data' | 'text' | 'image' | 'archive' | 'config' | 'file'

const BY_EXTENSION: Record<string, FileKind> = {}
const add = (kind: FileKind, extensions: string) => {
  for (const extension of extensions.split(' ')) BY_EXTENSION[extension] = kind
}
add('code', 'js mjs cjs jsx ts mts cts tsx py rb go rs java kt c h cc cpp hpp cs php swift sh bash zsh lua sql vue svelte')
add('markup', 'html htm xml svg')
add('style', 'css scss sass less')
add('data', 'json jsonc json5 yaml yml toml csv tsv ini')
add('text', 'md mdx markdown txt rst log')
add('image', 'png jpg jpeg gif webp avif ico bmp')
add('archive', 'zip tar gz tgz bz2 xz 7z')

const CONFIG_NAMES = new Set(['package.json', 'tsconfig.json', '.gitignore', '.editorconfig', '.npmrc', '.env', 'dockerfile', 'makefile'])

export function fileKind(name: string, type: 'file' | 'directory'): FileKind {
  if (type === 'directory') return 'folder'
  const lower = name.toLowerCase()
  if (CONFIG_NAMES.has(lower) || /^\.?[\w-]+\.config\.[cm]?[jt]s$/.test(lower) || lower.startsWith('.eslintrc') || lower.startsWith('.prettierrc')) return 'config'
  const dot = lower.lastIndexOf('.')
  return (dot > 0 && BY_EXTENSION[lower.slice(dot + 1)]) || 'file'
}
