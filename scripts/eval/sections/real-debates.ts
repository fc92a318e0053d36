import { join } from 'node:path'
import type { Trace } from '@shared/trace'
import {
  buildActOrDefer, buildTallies, DEFAULT_METHOD, evaluationSplit, fitCouncil, SeatIndex, summarize, type Method
} from '../../../src/main/engine'
import { convertMmluPro } from '../../../src/main/sim/mmlu-pro'
import { markdown } from '../aggregation/table'
import { scoreMethod, type MethodScores } from '../real-debates/scores'
import { DEBATE_FILES, readDebate } from '../real-debates/sets'
import { DATA_DIR, type EvalSection } from '../section'
import { deferral } from './certificate'

/**
 * The real-council check: the default method (docs/engine.md §11) against the final-round majority,
 * the best seat and per-agent on each real debate file separately and on the MMLU-Pro council, and the
 * certificate at the default budget on each debate (the `certify --labeled --splits 10` protocol).
 * Asserted, per set: the default's split accuracy ≥ majority-final's − 0.005; its nested-CV Brier ≤
 * min(majority-final, per-agent); its ECE_ew ≤ max(0.03, the 90th percentile of ECE_ew of its own
 * confidences with outcomes drawn as Bernoulli(confidence)); cipher's accuracy ≥ 0.841; at β = 0.20
 * WA ≤ β in every split of every debate and Act > 0 on cipher. Capped at 3 minutes.
 */

const SHOWN: readonly Method[] = ['majority-final', 'best-seat', 'per-agent', DEFAULT_METHOD]
const BETA = 0.2
const CERT_SPLITS = 10
const CAP_MS = 180_000
const f3 = (x: number): string => x.toFixed(3)

interface SetResult {
  name: string
  tasks: number
  scores: MethodScores[]
}

function checkScores(r: SetResult, failures: string[]): void {
  const of = (m: Method): MethodScores => r.scores.find((s) => s.method === m)!
  const d = of(DEFAULT_METHOD)
  const mf = of('majority-final')
  const pa = of('per-agent')
  if (d.splitAccuracy < mf.splitAccuracy - 0.005) failures.push(`FAILED ${r.name}: accuracy ${f3(d.splitAccuracy)} < majority-final ${f3(mf.splitAccuracy)} − 0.005`)
  if (r.name === 'cipher-phi4-gsm8k' && d.splitAccuracy < 0.841) failures.push(`FAILED ${r.name}: accuracy ${f3(d.splitAccuracy)} < 0.841`)
  const brierLine = Math.min(mf.brier, pa.brier)
  if (d.brier > brierLine) failures.push(`FAILED ${r.name}: Brier ${f3(d.brier)} > min(majority-final, per-agent) ${f3(brierLine)}`)
  const eceLine = Math.max(0.03, d.eceNoise)
  if (d.eceEw > eceLine) failures.push(`FAILED ${r.name}: ECE_ew ${f3(d.eceEw)} > max(0.03, noise p90 ${f3(d.eceNoise)})`)
}

/** The certificate on one debate at β = 0.20 under the defaults: Act and WA per split, why where it acted on nothing. */
function certifyDebate(name: string, traces: readonly Trace[], failures: string[]): string[] {
  const seats = new SeatIndex()
  const all = traces.filter((t) => t.gold != null).map((t) => buildTallies(t, seats))
  const acts: number[] = []
  const was: number[] = []
  const idle: string[] = []
  for (let i = 0; i < CERT_SPLITS; i++) {
    const { calibration, scored } = evaluationSplit(all, i, 0)
    const aod = buildActOrDefer(fitCouncil({ method: DEFAULT_METHOD, calibration, seed: 0 }), { state: 'social' })
    const batch = aod.prepare(scored)
    const d = aod.decide(batch, { kind: 'absolute', beta: BETA })
    const s = summarize(d, batch)
    acts.push(s.act)
    was.push(s.wa ?? NaN)
    if (s.act === 0) {
      const why = deferral(d)
      const dLoc = calibration.length - Math.round(0.2 * calibration.length)
      idle.push(why === 'no-usable-k' ? `deferred by rule (|D_loc| = ${dLoc})` : why)
    }
  }
  const over = was.filter((w) => !(w <= BETA)).length
  if (over > 0) failures.push(`FAILED ${name}: WA > β = ${BETA} in ${over}/${CERT_SPLITS} splits`)
  const meanAct = acts.reduce((a, b) => a + b, 0) / acts.length
  if (name === 'cipher-phi4-gsm8k' && !(meanAct > 0)) failures.push(`FAILED ${name}: acted on nothing at β = ${BETA}`)
  return [name, f3(meanAct), `${f3(Math.max(...was))}`, `${over}`, idle.length === 0 ? '' : `${idle.length}/${CERT_SPLITS}, first: ${idle[0]}`]
}

export const realDebates: EvalSection = {
  name: 'real-debates',
  summary: 'the default method vs majority-final, best seat and per-agent on 5 real debates and MMLU-Pro; the certificate at β = 0.20',
  async run() {
    const t0 = performance.now()
    const failures: string[] = []
    const results: SetResult[] = []
    const certRows: string[][] = []
    const overCap = (): boolean => performance.now() - t0 > CAP_MS
    for (const set of DEBATE_FILES) {
      if (overCap()) break
      const traces = await readDebate(DATA_DIR, set.file)
      const r = { name: set.name, tasks: traces.length, scores: SHOWN.map((m) => scoreMethod(m, traces)) }
      checkScores(r, failures)
      results.push(r)
      certRows.push(certifyDebate(set.name, traces, failures))
    }
    if (!overCap()) {
      const { traces } = convertMmluPro(join(DATA_DIR, 'mmlu-pro-llm-outputs'))
      const r = { name: 'MMLU-Pro', tasks: traces.length, scores: SHOWN.map((m) => scoreMethod(m, traces)) }
      checkScores(r, failures)
      results.push(r)
    }
    const seconds = (performance.now() - t0) / 1000
    if (results.length < DEBATE_FILES.length + 1) failures.push(`FAILED: the 3-minute cap was reached after ${results.length} sets`)

    const lines = [
      `### Real councils: split accuracy (mean of 10 hashed splits, 10 % of the gold as calibration) / nested-CV Brier / ECE_ew (noise p90)`,
      '',
      ...markdown(
        ['set', 'tasks', ...SHOWN],
        results.map((r) => [r.name, `${r.tasks}`, ...r.scores.map((s) => `${f3(s.splitAccuracy)} / ${f3(s.brier)} / ${f3(s.eceEw)} (${f3(s.eceNoise)})`)])
      ),
      '',
      `### The certificate under the defaults (${DEFAULT_METHOD}, binomial bound, social state), β = ${BETA}, ${CERT_SPLITS} splits of 50/50`,
      '',
      ...markdown(['set', 'mean Act', 'max WA', 'WA > β', 'acted on nothing: why'], certRows),
      '',
      ...failures,
      `asserted: accuracy ≥ majority-final − 0.005 (cipher ≥ 0.841), Brier ≤ min(majority-final, per-agent), ECE_ew ≤ max(0.03, noise p90); WA ≤ β in every split, Act > 0 on cipher — ${failures.length === 0 ? 'ok' : 'FAILED'}`,
      `duration ${seconds.toFixed(1)} s`
    ]
    return { ok: failures.length === 0, lines }
  }
}
