/**
 * The audit's agreement section: from every reviewer's vote on the tasks two or more
 * reviewers labeled, Cohen's κ for each pair of reviewers over the tasks both labeled, and Fleiss'
 * κ over all those tasks (kappa.ts; adjudicators' rulings are not votes and are left out).
 */
import type { AgreementPair, AgreementView } from '../../../shared/api'
import type { Vote } from '../../store'
import { cohenKappa, fleissKappa, type Kappa } from './kappa'

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const view = (k: Kappa) => ({ tasks: k.n, observed: k.observed, expected: k.expected, kappa: k.kappa })

export function agreementView(votes: readonly Vote[]): AgreementView {
  const tasks = new Map<string, Map<string, string>>()
  for (const v of votes) {
    let t = tasks.get(v.taskId)
    if (t === undefined) tasks.set(v.taskId, (t = new Map()))
    t.set(v.reviewer, v.label)
  }
  const rated = [...tasks.values()].filter((t) => t.size >= 2)
  const reviewers = [...new Set(rated.flatMap((t) => [...t.keys()]))].sort(byName)

  const pairs: AgreementPair[] = []
  for (let i = 0; i < reviewers.length; i++) {
    for (let j = i + 1; j < reviewers.length; j++) {
      const [a, b] = [reviewers[i], reviewers[j]]
      const both = rated.flatMap((t) => (t.has(a) && t.has(b) ? [[t.get(a), t.get(b)] as [string, string]] : []))
      if (both.length > 0) pairs.push({ a, b, ...view(cohenKappa(both)) })
    }
  }

  const categories = [...new Set(rated.flatMap((t) => [...t.values()]))].sort(byName)
  const matrix = rated.map((t) => {
    const row = new Array<number>(categories.length).fill(0)
    for (const label of t.values()) row[categories.indexOf(label)]++
    return row
  })
  const sizes = rated.map((t) => t.size)
  const overall = rated.length === 0 ? null : { ...view(fleissKappa(matrix)), minRaters: Math.min(...sizes), maxRaters: Math.max(...sizes) }
  return { reviewers, pairs, overall }
}
