import type { ImportProblem } from './contract/imports'

/**
 * A list of import problems as people read it: a rule broken many times (600 tasks already held with
 * other content) is one entry with its count and its first few problems, not hundreds of lines that
 * differ only in the task id. Rules broken a few times stay one entry per problem, in file order.
 */
export type ProblemEntry =
  | { kind: 'one'; problem: ImportProblem }
  | { kind: 'group'; rule: string; count: number; /** What the count counts. */ unit: 'tasks' | 'lines'; first: ImportProblem[] }

/** From this many problems of one rule, they are listed as one group. */
export const GROUP_FROM = 10
/** How many of a group's problems are listed under it. */
export const GROUP_SHOWN = 3

export function groupProblems(list: readonly ImportProblem[]): ProblemEntry[] {
  const byRule = new Map<string, ImportProblem[]>()
  for (const p of list) {
    const same = byRule.get(p.rule)
    if (same === undefined) byRule.set(p.rule, [p])
    else same.push(p)
  }
  const out: ProblemEntry[] = []
  const placed = new Set<string>()
  for (const p of list) {
    const same = byRule.get(p.rule) as ImportProblem[]
    if (same.length < GROUP_FROM) out.push({ kind: 'one', problem: p })
    else if (!placed.has(p.rule)) {
      placed.add(p.rule)
      const tasks = new Set(same.map((s) => s.task))
      const unit = !tasks.has(null) && tasks.size === same.length ? 'tasks' : 'lines'
      out.push({ kind: 'group', rule: p.rule, count: same.length, unit, first: same.slice(0, GROUP_SHOWN) })
    }
  }
  return out
}

/** `600 tasks: changed-task — <the first one's message>`. */
export function groupHeading(g: Extract<ProblemEntry, { kind: 'group' }>): string {
  return `${g.count} ${g.unit}: ${g.rule} — e.g. ${g.first[0].message}`
}
