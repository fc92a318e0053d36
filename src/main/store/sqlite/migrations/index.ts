import type { Migration } from '../../migrations'
import { migration as m0001 } from './0001-initial'
import { migration as m0002 } from './0002-operating-loop'
import { migration as m0003 } from './0003-packed-moves'
import { migration as m0004 } from './0004-decisions-per-fit'
import { migration as m0005 } from './0005-decision-numbers'
import { migration as m0006 } from './0006-fit-bound-old-defaults'
import { migration as m0007 } from './0007-calibrate-draws'
import { migration as m0008 } from './0008-flags-reviewer-history'
import { migration as m0009 } from './0009-decision-rounds'
import { migration as m0010 } from './0010-labeled-counts'
import { migration as m0011 } from './0011-draw-lifetime'
import { migration as m0012 } from './0012-what-if-figures'

/** The SQLite schema history, in order. Append new files; never edit or reorder shipped ones. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012]
