/**
 * The readers' limits: they live once, in src/shared/limits.ts (the store and the console read
 * them too); this is the readers' one import of them.
 */
export {
  DERIVED_BYTES_PER_INPUT_BYTE,
  derivedBytes,
  formatCount,
  MAX_CANDIDATES,
  MAX_ID_LENGTH,
  MAX_JSON_DEPTH,
  MAX_MOVE_TEXT,
  MAX_MOVES_PER_TASK,
  MAX_QUESTION_TEXT,
  MAX_ROUNDS_PER_TASK,
  MAX_SEATS_PER_TASK,
  MAX_TALLY_COUNTS,
  tallyCounts
} from '../../shared/limits'
