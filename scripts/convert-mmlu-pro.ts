/**
 * npx tsx scripts/convert-mmlu-pro.ts --out FILE.jsonl [--data DIR]
 *
 * Writes the MMLU-Pro five-model council as arbiter.trace/1 JSONL (rules: the dataset's
 * PROVENANCE.md, implemented in src/main/sim/mmlu-pro.ts), prints the counts and checks them
 * against PROVENANCE.md. Exit 0 when they agree, 1 when they do not, 2 on bad arguments.
 */
import { writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { datasetDir } from './data-dir'
import { toJsonl } from '../src/main/sim/jsonl'
import { MMLU_PRO_PROVENANCE, convertMmluPro } from '../src/main/sim/mmlu-pro'

const USAGE = 'usage: npx tsx scripts/convert-mmlu-pro.ts --out FILE.jsonl [--data DIR]'

function parseArgs(argv: string[]): { out: string; data: string } {
  let out: string | undefined
  // Default: the data folder's copy (scripts/data-dir.ts), wherever the command is run from.
  let data = datasetDir('mmlu-pro-llm-outputs')
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1]
    if ((argv[i] === '--out' || argv[i] === '--data') && value === undefined) throw new Error(`${argv[i]} needs a value`)
    if (argv[i] === '--out') out = argv[++i]
    else if (argv[i] === '--data') data = resolve(argv[++i])
    else throw new Error(`unknown argument ${argv[i]}`)
  }
  if (out === undefined) throw new Error('--out is required')
  out = resolve(out)
  // The dataset directory is a read-only snapshot; never write the output into it.
  if (!relative(data, out).startsWith('..')) throw new Error('--out must not be inside the data directory')
  return { out, data }
}

function main(): number {
  let args: { out: string; data: string }
  try {
    args = parseArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`)
    return 2
  }
  const { traces, stats } = convertMmluPro(args.data)
  writeFileSync(args.out, traces.map((t) => `${toJsonl(t)}\n`).join(''))

  const lines = [
    `wrote ${args.out}`,
    `files ${stats.files} (rows ${stats.rowsPerFile.join(', ')}); common questions ${stats.commonQuestions}; gold drift ${stats.goldDrift}`,
    `tasks ${stats.tasks}; dropped ${stats.dropped.length}${stats.dropped.map((d) => ` [${d.questionId}: ${d.reason}]`).join('')}`,
    `moves ${stats.moves} = proposes ${stats.proposes} + abstentions ${stats.abstentions}`,
    `non-null predictions: ${stats.nonNullCommon} on common questions, ${stats.nonNullAllRows} over all rows; out-of-candidate ${stats.outOfCandidate}`,
    ...stats.seats.map((s) => `  ${s.seat.padEnd(16)} ${s.model.padEnd(28)} accuracy ${s.accuracy.toFixed(4)}  null ${s.nulls} (all rows ${s.nullsAllRows})  out-of-candidate ${s.outOfCandidate}`)
  ]
  process.stdout.write(`${lines.join('\n')}\n`)

  const nulls = stats.seats.reduce((n, s) => n + s.nulls, 0)
  const checks: [what: string, got: number, want: number, source: string][] = [
    ['seats', stats.files, MMLU_PRO_PROVENANCE.seats, 'PROVENANCE.md'],
    ['common questions', stats.commonQuestions, MMLU_PRO_PROVENANCE.commonQuestions, 'PROVENANCE.md'],
    ['non-null predictions (all rows)', stats.nonNullAllRows, MMLU_PRO_PROVENANCE.nonNullPredictions, 'PROVENANCE.md'],
    ['out-of-candidate predictions', stats.outOfCandidate, MMLU_PRO_PROVENANCE.outOfCandidatePredictions, 'PROVENANCE.md'],
    ['tasks + dropped', stats.tasks + stats.dropped.length, stats.commonQuestions, 'common questions'],
    ['abstentions', stats.abstentions, nulls + stats.outOfCandidate, 'nulls + out-of-candidate'],
    ['moves', stats.moves, stats.tasks * stats.files, 'tasks × seats']
  ]
  let ok = true
  for (const [what, got, want, source] of checks) {
    const pass = got === want
    ok &&= pass
    process.stdout.write(`check ${what}: ${got} ${pass ? '=' : '≠'} ${want} (${source}) ${pass ? 'ok' : 'MISMATCH'}\n`)
  }
  return ok ? 0 : 1
}

process.exitCode = main()
