/** Flags: "can't decide", with the reason. A flag is not a label: the task keeps its state. */
import { z } from 'zod'
import { FLAG_REASON_MAX } from '../limits'
import { command, defineCalls, id, returns } from './call'

export interface FlagView {
  id: string
  taskId: string
  reviewer: string
  reason: string
  at: string
}

export const flagCalls = defineCalls({
  'flags.add': command(z.object({ taskId: id, reason: z.string().trim().min(1).max(FLAG_REASON_MAX) }).strict(), returns<FlagView>())
})
