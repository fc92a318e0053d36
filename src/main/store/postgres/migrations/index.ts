import type { Migration } from '../../migrations'
import { migration as m0001 } from './0001-initial'
import { migration as m0002 } from './0002-decisions-per-fit'
import { migration as m0003 } from './0003-fit-bound-old-defaults'
import { migration as m0004 } from './0004-decision-numbers'
import { migration as m0005 } from './0005-calibrate-draws'
import { migration as m0006 } from './0006-flags-reviewer-history'
import { migration as m0007 } from './0007-decision-rounds'
import { migration as m0008 } from './0008-draw-lifetime'
import { migration as m0009 } from './0009-what-if-figures'

/** The PostgreSQL schema history, in order. Append new files; never edit or reorder shipped ones. */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009]
