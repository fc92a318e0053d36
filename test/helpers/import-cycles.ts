/**
 * The import graph of a source tree and its circles. Every import counts — `import type`,
 * `export … from` and `import()` included — because a circle of type imports still ties the files
 * into one unit that can only be read, moved or tested together. TypeScript's own pre-processor
 * finds the imports, so text in strings and comments is never taken for one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/** File → the files it imports, all as paths relative to the root. */
export type ImportGraph = Map<string, string[]>

const SOURCE = /\.(ts|tsx|mts|cts)$/
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '/index.ts', '/index.tsx']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? sourceFiles(full) : SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : []
  })
}

function resolveImport(from: string, spec: string, aliases: Record<string, string>): string | null {
  const alias = Object.keys(aliases).find((a) => spec === a || spec.startsWith(`${a}/`))
  const base = alias !== undefined ? join(aliases[alias], spec.slice(alias.length)) : spec.startsWith('.') ? resolve(dirname(from), spec) : null
  if (base === null) return null // a package
  const stem = base.replace(/\.js$/, '')
  for (const ext of ['', ...EXTENSIONS]) {
    const candidate = stem + ext
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

/** The graph of every source file under `dir`, relative to `root`; `aliases` maps a prefix (`@shared`) to a folder. */
export function importGraph(root: string, dir: string, aliases: Record<string, string> = {}): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of sourceFiles(join(root, dir))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = info.importedFiles
      .map((f) => resolveImport(file, f.fileName, aliases))
      .filter((t): t is string => t !== null)
      .map((t) => relative(root, t))
    graph.set(relative(root, file), [...new Set(targets)].sort())
  }
  return graph
}

/**
 * The circles of a graph: each strongly connected component of more than one file (or a file that
 * imports itself), its files sorted. Tarjan's algorithm, iterative so a deep tree cannot overflow.
 */
export function findCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const circles: string[][] = []
  let next = 0
  const edges = (v: string) => (graph.get(v) ?? []).filter((w) => graph.has(w))

  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { v: string; i: number }[] = [{ v: start, i: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const out = edges(frame.v)
      if (frame.i < out.length) {
        const w = out[frame.i++]
        if (!index.has(w)) {
          index.set(w, next)
          low.set(w, next++)
          stack.push(w)
          onStack.add(w)
          work.push({ v: w, i: 0 })
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].v
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.v)!))
      }
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          component.push(w)
        } while (w !== frame.v)
        if (component.length > 1 || edges(frame.v).includes(frame.v)) circles.push(component.sort())
      }
    }
  }
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : 1))
}
