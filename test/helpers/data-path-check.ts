/**
 * Finds hard-coded data paths in source text: scripts/data-dir.ts is the one place that
 * resolves the data folder, so any other file naming it — an absolute workspace path, a string
 * literal holding the shared data folder, or its pieces passed to `join` — would break on a clone
 * that lives anywhere else. Prose that merely mentions the folder is not a path and passes.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

export interface DataPathHit {
  line: number
  rule: 'absolute-workspace-path' | 'shared-data-literal'
  text: string
}

const RULES: readonly [DataPathHit['rule'], RegExp][] = [
  // An absolute path under the workspace root (the folder work at the filesystem root), not a/work.
  ['absolute-workspace-path', /(?:^|[^\w.\-/])\/work\//],
  // A string literal (any quotes) holding the path shared/data, relative or not.
  ['shared-data-literal', /(['"`])(?:(?!\1).)*\bshared[\\/]+data\b(?:(?!\1).)*\1/],
  // Its pieces as separate literals passed to join, or a literal of parent steps then shared.
  ['shared-data-literal', /['"`]shared['"`]\s*,\s*['"`]data['"`]/],
  ['shared-data-literal', /['"`](?:\.\.[\\/])+shared[\\/]?['"`]/]
]

/** Every line of `text` that hard-codes a data path, with the rule it breaks. */
export function findDataPaths(text: string): DataPathHit[] {
  const hits: DataPathHit[] = []
  text.split('\n').forEach((line, i) => {
    const rule = RULES.find(([, re]) => re.test(line))
    if (rule !== undefined) hits.push({ line: i + 1, rule: rule[0], text: line.trim() })
  })
  return hits
}

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/

/** The source files under `dirs` of `root` (relative paths), skipping node_modules. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path)
      } else if (SOURCE.test(entry.name)) out.push(relative(root, path))
    }
  }
  for (const d of dirs) walk(join(root, d))
  return out.sort()
}
