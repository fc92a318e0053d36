/**
 * The certificate section's Hoeffding reference: per split (0–9), Act and WA of the MMLU-Pro council
 * under per-agent, the social state, β = 0.25 and the Hoeffding bound, computed by the code before the
 * binomial bound existed (commit 27b4e1a, `fitCouncil` + `buildActOrDefer` + `decide` + `summarize`
 * exactly as the section runs them). `--bound hoeffding` must keep reproducing them to 1e-12.
 */
export const HOEFFDING_SOCIAL_025: readonly { act: number; wa: number }[] = [
  { act: 0, wa: 0 },
  { act: 0.11769574573746068, wa: 0.014401589140870717 },
  { act: 0.11343483352852601, wa: 0.01422118119457922 },
  { act: 0.116737915159487, wa: 0.013646826701742847 },
  { act: 0.11525593844095015, wa: 0.016226162596186016 },
  { act: 0.11929061402041158, wa: 0.01472310523674084 },
  { act: 0.1125370187561698, wa: 0.01349128002632445 },
  { act: 0.11306075153120344, wa: 0.012580698559841086 },
  { act: 0, wa: 0 },
  { act: 0.11551809618244918, wa: 0.013882002974714923 }
]
