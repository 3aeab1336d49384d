#!/usr/bin/env node
// Moves source files and rewrites every relative import that names them (and every import inside them), so a
// reorganisation (issue 16) is one mechanical commit that can be re-run on a newer tip instead of merged by hand.
//   node scripts/move-files.mjs moves.txt [--dry-run]
// moves.txt: one `old new` pair a line, paths relative to the repository root; a pair of folders ending in `/` moves
// every file under the first. Blank lines and `#` comments are ignored. Files are moved with `git mv` in a git work
// tree (history follows them), else renamed. `new URL('./x.ts', import.meta.url)` references are not rewritten:
// they are listed for a person to check.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fileImports, sourceFiles } from './import-graph.mjs'

const SCANNED = ['src', 'e2e', 'scripts', 'test-servers']
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js']

/** `Map<absolute old, absolute new>` from the text of a moves file. */
export function readMoves(root, text) {
  const moves = new Map()
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim()
    if (!line) continue
    const [from, to, extra] = line.split(/\s+/)
    if (!from || !to || extra) throw new Error(`A move is "old new": ${raw}`)
    const source = resolve(root, from)
    if (!existsSync(source)) throw new Error(`Nothing to move at ${from}`)
    if (statSync(source).isDirectory()) {
      if (!from.endsWith('/') || !to.endsWith('/')) throw new Error(`Folders are written with a trailing /: ${raw}`)
      for (const file of allFiles(source)) moves.set(file, join(resolve(root, to), relative(source, file)))
    } else {
      moves.set(source, resolve(root, to))
    }
  }
  const targets = new Map()
  for (const [from, to] of moves) {
    if (targets.has(to)) throw new Error(`${relative(root, targets.get(to))} and ${relative(root, from)} both move to ${relative(root, to)}`)
    if (existsSync(to) && !moves.has(to)) throw new Error(`${relative(root, to)} exists already`)
    targets.set(to, from)
  }
  return moves
}

function allFiles(dir) {
  return execFileSync('find', [dir, '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()
}

// The file a relative specifier names, of any kind (a style sheet or `?raw` text moves like a module), and how it
// was written: with its extension, without one, or as a folder with an index file.
function target(from, specifier) {
  const [path, query = ''] = specifier.split(/(?=\?)/)
  const base = resolve(dirname(from), path)
  if (existsSync(base) && statSync(base).isFile()) return { file: base, style: 'exact', query }
  for (const extension of EXTENSIONS) if (existsSync(base + extension)) return { file: base + extension, style: 'bare', query }
  for (const extension of EXTENSIONS) {
    const index = join(base, `index${extension}`)
    if (existsSync(index)) return { file: index, style: 'folder', query }
  }
  return undefined
}

function specifierFor(fromFile, { file, style: written, query }) {
  // A folder's index that moves to a file of another name (permission/index.ts → runtime/permission.ts) is named bare.
  const style = written === 'folder' && !/^index\.[^.]+$/.test(basename(file)) ? 'bare' : written
  let path = relative(dirname(fromFile), style === 'folder' ? dirname(file) : file).split(sep).join('/')
  if (style === 'bare') path = path.replace(/\.(tsx?|mts|mjs|js)$/, '')
  if (!path.startsWith('.')) path = `./${path}`
  return path + query
}

/** Plans the move: `{moves, edits: Map<new path, text>, unchanged, urls}` without touching the disk. */
export function planMoves(root, moves) {
  const edits = new Map()
  const urls = []
  const files = SCANNED.filter((dir) => existsSync(join(root, dir))).flatMap((dir) => [
    ...sourceFiles(join(root, dir)),
    ...allFiles(join(root, dir)).filter((file) => /\.m?js$/.test(file) && !file.includes(`${sep}node_modules${sep}`)),
  ])
  for (const file of [...new Set(files)]) {
    const text = readFileSync(file, 'utf8')
    const movedFile = moves.get(file) ?? file
    let output = text
    // From the end, so earlier offsets stay valid.
    for (const ref of fileImports(file).sort((a, b) => b.start - a.start)) {
      if (!ref.specifier.startsWith('.')) continue
      const named = target(file, ref.specifier)
      if (!named) continue
      const next = specifierFor(movedFile, { ...named, file: moves.get(named.file) ?? named.file })
      if (next === ref.specifier) continue
      const quote = text[ref.start]
      output = output.slice(0, ref.start) + quote + next + quote + output.slice(ref.end)
    }
    if (/new URL\(\s*['"]\./.test(text) && (moves.has(file) || [...moves.keys()].some((moved) => dirname(moved) === dirname(file)))) {
      urls.push(relative(root, file))
    }
    if (output !== text || moves.has(file)) edits.set(movedFile, output)
  }
  return { moves, edits, urls }
}

/** Moves the files (git mv when in a work tree) and writes the rewritten imports. */
export function applyMoves(root, { moves, edits }) {
  const git = existsSync(join(root, '.git'))
  for (const [from, to] of moves) {
    mkdirSync(dirname(to), { recursive: true })
    if (git) execFileSync('git', ['mv', relative(root, from), relative(root, to)], { cwd: root })
    else renameSync(from, to)
  }
  for (const [file, text] of edits) writeFileSync(file, text)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [movesFile, flag] = process.argv.slice(2)
  if (!movesFile) {
    console.error('usage: node scripts/move-files.mjs moves.txt [--dry-run]')
    process.exit(2)
  }
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
  const plan = planMoves(root, readMoves(root, readFileSync(movesFile, 'utf8')))
  const rewritten = [...plan.edits.keys()].filter((file) => ![...plan.moves.values()].includes(file))
  console.log(`${plan.moves.size} files move; imports change in ${rewritten.length} other files.`)
  for (const file of plan.urls) console.log(`  check new URL(…) in ${file}`)
  if (flag !== '--dry-run') applyMoves(root, plan)
}
