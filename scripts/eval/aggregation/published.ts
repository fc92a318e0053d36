import type { Method } from '../../../src/main/engine'

/**
 * Reference accuracies from each dataset's PROVENANCE.md, shown beside ours "whichever way they
 * fall". They are NOT like-for-like: they score every gold task with an unsupervised or
 * differently-supervised model, where our splits score the 90 % left after calibration. Error
 * rates are turned into accuracies (1 − err/100).
 *
 * Sources, by tag:
 * - CK   published: Crowd-Kit JOSS paper (joss/paper.md @ bd45e02, = arXiv:2109.08584v4).
 * - Z16? Zhang et al. 2016 (JMLR 17(102)) as recalled in PROVENANCE.md — unverified there.
 * - P    "computed here" by the dataset's curator (PROVENANCE.md), not a publication.
 */
export interface Reference {
  value: number
  tag: 'CK' | 'Z16?' | 'P'
  /** What the number is, when it is not simply this method. */
  what?: string
}

type RefTable = Partial<Record<Method, Reference[]>>

const P = (value: number, what?: string): Reference => ({ value, tag: 'P', what })
const CK = (value: number): Reference => ({ value, tag: 'CK' })
const Z = (value: number, what?: string): Reference => ({ value, tag: 'Z16?', what })
const err = (pct: number): number => Math.round((1 - pct / 100) * 1e4) / 1e4

/** Zhang et al.'s datasets: MV / DS full / one-coin DS / supervised one-coin (P), MV and MV-D&S (Z16?). */
function zhang(mv: number, ds: number, oneCoin: number, supervised: number, z16Mv: number | null, z16Ds: number): RefTable {
  return {
    majority: [P(err(mv)), ...(z16Mv === null ? [] : [Z(err(z16Mv))])],
    'ds-em-full': [P(err(ds)), Z(err(z16Ds), 'MV-D&S')],
    'ds-em': [P(err(oneCoin))],
    'per-agent': [P(err(supervised), 'sup. one-coin')]
  }
}

export const REFERENCES: Record<string, RefTable> = {
  D_Product: {
    majority: [CK(0.897), P(0.8966)],
    'ds-em-full': [CK(0.94), P(0.9397)],
    'ds-em': [P(0.9084)]
  },
  bluebird: zhang(24.07, 10.19, 41.67, 14.08, 24.07, 11.11),
  rte: zhang(10.31, 7.25, 7.5, 8.69, 10.31, 7.12),
  // Z16?'s dog MV (≈19.6) disagrees with P's 17.78; PROVENANCE.md flags it as unverified.
  dog: zhang(17.78, 15.74, 16.98, 16.56, 19.6, 16.66),
  web: zhang(26.93, 17.08, 19.22, 13.61, 26.93, 15.74),
  trec: zhang(34.86, 29.67, 43.96, 34.48, 34.86, 30.02),
  AdultContent2: {
    majority: [CK(0.763), P(0.759)],
    'ds-em-full': [CK(0.748), P(0.7477)]
  },
  'MMLU-Pro': {
    majority: [P(0.6164)],
    'ds-em-full': [P(0.6641, 'global 10×10')],
    'ds-em': [P(0.6536)],
    'per-agent': [P(0.6788, 'sup. one-coin')]
  }
}

/** Published numbers for methods Arbiter does not implement, printed under the dataset's block. */
export const OTHER_REFERENCES: Record<string, string> = {
  D_Product: 'also published (CK): Wawa 0.897, GLAD 0.928, KOS 0.895, MACE 0.929',
  AdultContent2: 'also published (CK): Wawa 0.766, GLAD 0.760, MACE 0.763, M-MSR 0.751',
  'MMLU-Pro': 'best single seat (gemini-1.5-pro, P): 0.7013; no published council number exists'
}

export function formatReferences(refs: readonly Reference[] | undefined): string {
  if (refs === undefined || refs.length === 0) return '—'
  return refs.map((r) => `${r.value.toFixed(r.tag === 'CK' ? 3 : 4)} ${r.tag}${r.what ? ` (${r.what})` : ''}`).join(' · ')
}
