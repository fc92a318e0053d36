/**
 * The data folder is resolved in one place (scripts/data-dir.ts). No other source file
 * under src, test, scripts or bench may hard-code it, nor any absolute workspace path.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../scripts/data-dir'
import { findDataPaths, sourceFiles } from '../helpers/data-path-check'

// Planted paths are assembled here so this file's own text stays clean.
const WORK = ':work:shared:data'.replace(/:/g, '/')
const SHARED_DATA = '..:shared:data'.replace(/:/g, '/')
const SLASH = '/'
const q = (s: string): string => `'${s}'`

describe('findDataPaths', () => {
  it('flags an absolute workspace path, in code or prose', () => {
    expect(findDataPaths(`const DATA = ${q(WORK)}`)).toEqual([{ line: 1, rule: 'absolute-workspace-path', text: `const DATA = ${q(WORK)}` }])
    expect(findDataPaths(`ok\n * reads ${WORK}/x only`)).toMatchObject([{ line: 2, rule: 'absolute-workspace-path' }])
  })

  it('flags the shared data folder as a literal, a template or pieces passed to join', () => {
    const planted = [
      `const DATA = join(__dirname, ${q(`../../${SHARED_DATA}`)})`,
      `const crowd = \`\${root}/${SHARED_DATA}/crowdkit\``,
      `resolve(root, ${q('..')}, ${q('shared')}, ${q('data')})`,
      `join(root, ${q(`..${SLASH}shared`)}, ${q('data')})`,
      `join(root, "..${SLASH}..${SLASH}shared${SLASH}", "data")`
    ]
    for (const line of planted) expect(findDataPaths(line), line).toMatchObject([{ line: 1, rule: 'shared-data-literal' }])
  })

  it('passes prose about the folder and paths that only look alike', () => {
    const clean = [
      ` * The real datasets of ${SHARED_DATA}, read as stored`,
      `import { x } from ${q('../../shared/api')}`,
      `const homework = ${q('src/work/x')}`,
      `const url = ${q('https://example.org/a/work/b')}`,
      `method: ${q('shared')}, spotRate: 0.05`
    ]
    for (const line of clean) expect(findDataPaths(line), line).toEqual([])
  })
})

describe('the sources', () => {
  it('hard-code no data path outside scripts/data-dir.ts', () => {
    const files = sourceFiles(REPO_ROOT, ['src', 'test', 'scripts', 'bench'])
    expect(files).toContain('test/reliability/fuzz/seeds.ts')
    const hits = files
      .filter((f) => f !== 'scripts/data-dir.ts')
      .flatMap((f) => findDataPaths(readFileSync(`${REPO_ROOT}/${f}`, 'utf8')).map((h) => `${f}:${h.line} ${h.rule}: ${h.text}`))
    expect(hits).toEqual([])
  })
})
