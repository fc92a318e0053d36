/**
 * The repository explains itself: the README stays a short front door, the documents it links
 * exist, and every citation in the code names a document (and a section of the engine's) that the
 * repository carries — a user's clone has nothing beside it to look things up in.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')
const read = (path: string): string => readFileSync(join(root, path), 'utf8')

const DOCS = ['engine.md', 'formats.md', 'architecture.md', 'team.md', 'performance.md', 'reliability.md']

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (name === 'node_modules' || name === 'fixtures') return []
    return statSync(full).isDirectory() ? files(full, pattern) : pattern.test(name) ? [full] : []
  })
}

const sources = (): string[] => ['src', 'test', 'scripts', 'bench'].flatMap((d) => files(join(root, d), /\.(ts|tsx|mts|mjs|css|html)$/))

/** Applied migrations keep their SQL byte for byte (its sha256 is recorded in every database made with it). */
const isShippedMigration = (file: string): boolean => /\/migrations\/\d{4}-[a-z0-9-]+\.ts$/.test(file)

describe('the README', () => {
  const readme = read('README.md')
  const lines = readme.split('\n')

  it('is read in ten minutes: at most 250 lines, none over 400 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(250)
    expect(lines.filter((l) => l.length > 400)).toEqual([])
  })

  it('carries no dated entries (history lives in git and CHANGELOG.md)', () => {
    expect(lines.filter((l) => /20\d{2}-\d{2}-\d{2}/.test(l))).toEqual([])
  })

  it('gives the set-up commands and links every document in docs/', () => {
    for (const command of ['npm install', 'npm start', 'npm run serve', 'npm test']) expect(readme).toContain(command)
    for (const doc of DOCS) expect(readme).toContain(`(docs/${doc})`)
    expect(readme).toContain('(CHANGELOG.md)')
  })
})

describe('the documents', () => {
  it('exist: docs/ and CHANGELOG.md', () => {
    for (const doc of DOCS) expect(existsSync(join(root, 'docs', doc)), `docs/${doc}`).toBe(true)
    expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(true)
  })

  it('link only to files that exist', () => {
    const broken: string[] = []
    for (const doc of ['README.md', 'CHANGELOG.md', ...DOCS.map((d) => `docs/${d}`)]) {
      for (const m of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!
        if (/^[a-z]+:/.test(target)) continue
        if (!existsSync(join(root, dirname(doc), target))) broken.push(`${doc} → ${target}`)
      }
    }
    expect(broken).toEqual([])
  })
})

describe('citations in the code', () => {
  it('name no document outside the repository', () => {
    const offenders: string[] = []
    for (const file of sources()) {
      if (isShippedMigration(file)) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/(^|[^/a-z])(ENGINE|FORMATS|DESIGN)\.md|shared\/docs/.test(line)) offenders.push(`${relative(root, file)}:${i + 1}`)
        })
    }
    expect(offenders).toEqual([])
  })

  it('cite sections of docs/engine.md that exist', () => {
    const engine = read('docs/engine.md')
    const sections = new Set([...engine.matchAll(/^#{2,3} (\d+)\. /gm)].map((m) => m[1]))
    const missing = new Set<string>()
    for (const file of sources()) {
      for (const m of readFileSync(file, 'utf8').matchAll(/docs\/engine\.md §(\d+)/g)) {
        if (!sections.has(m[1])) missing.add(`§${m[1]} (${relative(root, file)})`)
      }
    }
    expect([...missing]).toEqual([])
  })

  it('cite no issue numbers in src/ (comments say why, history lives in git)', () => {
    const offenders: string[] = []
    for (const file of files(join(root, 'src'), /\.(ts|tsx|css|html)$/)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/issue #?\d+/i.test(line)) offenders.push(`${relative(root, file)}:${i + 1}`)
        })
    }
    expect(offenders).toEqual([])
  })
})
