import type { QuestionMaker } from '../config'
import type { Rng } from '../prng'

/**
 * Binary medical claims ("MedClaim", K = 2, candidates true / false in that fixed order so the
 * labels keep their meaning across tasks, as the confusion model needs). The claims are
 * synthetic — interventions paired with outcomes and populations they are plausibly studied in —
 * and their truth is drawn at random; the council's verdict is what the demo is about.
 */

interface Intervention {
  name: string
  outcomes: string[]
  populations: string[]
}

const INTERVENTIONS: Intervention[] = [
  { name: 'Daily low-dose aspirin', outcomes: ['reduces the risk of a first stroke', 'lowers all-cause mortality', 'prevents colorectal adenomas'], populations: ['adults over 70', 'adults with type 2 diabetes', 'people with no history of cardiovascular disease'] },
  { name: 'Vitamin D supplementation', outcomes: ['reduces the risk of hip fracture', 'prevents acute respiratory infections', 'lowers the incidence of type 2 diabetes'], populations: ['community-dwelling older adults', 'adults with prediabetes', 'nursing-home residents'] },
  { name: 'Semaglutide', outcomes: ['reduces major adverse cardiovascular events', 'slows the decline of kidney function', 'lowers HbA1c by at least one percentage point'], populations: ['adults with obesity without diabetes', 'adults with type 2 diabetes and chronic kidney disease', 'adults with established cardiovascular disease'] },
  { name: 'Metformin', outcomes: ['delays the onset of type 2 diabetes', 'reduces cancer incidence', 'lowers all-cause mortality'], populations: ['adults with prediabetes', 'women with polycystic ovary syndrome', 'adults over 65'] },
  { name: 'High-intensity statin therapy', outcomes: ['reduces recurrent stroke', 'lowers the risk of myocardial infarction', 'reduces dementia incidence'], populations: ['patients after an ischaemic stroke', 'adults over 75', 'patients with familial hypercholesterolaemia'] },
  { name: 'Omega-3 fatty acid supplements', outcomes: ['reduce cardiovascular mortality', 'slow cognitive decline', 'reduce symptoms of depression'], populations: ['adults with hypertriglyceridaemia', 'older adults with mild cognitive impairment', 'adults with major depressive disorder'] },
  { name: 'Early mobilisation after surgery', outcomes: ['shortens hospital length of stay', 'reduces postoperative pneumonia', 'lowers the rate of venous thromboembolism'], populations: ['patients after hip replacement', 'patients after abdominal surgery', 'patients after cardiac surgery'] },
  { name: 'Dexamethasone', outcomes: ['reduces 28-day mortality', 'shortens time to clinical recovery', 'reduces the need for mechanical ventilation'], populations: ['hospitalised patients with severe COVID-19', 'adults with community-acquired pneumonia', 'patients with bacterial meningitis'] },
  { name: 'Cognitive behavioural therapy', outcomes: ['reduces insomnia severity', 'lowers relapse rates', 'improves chronic pain scores'], populations: ['adults with chronic insomnia', 'adults recovering from major depression', 'patients with chronic low back pain'] },
  { name: 'Tranexamic acid', outcomes: ['reduces death from bleeding', 'lowers transfusion requirements', 'reduces postpartum haemorrhage mortality'], populations: ['trauma patients treated within three hours', 'patients undergoing knee replacement', 'women giving birth by caesarean section'] },
  { name: 'SGLT2 inhibitors', outcomes: ['reduce hospitalisation for heart failure', 'slow the progression of chronic kidney disease', 'lower cardiovascular death'], populations: ['patients with heart failure and preserved ejection fraction', 'adults with chronic kidney disease without diabetes', 'adults with type 2 diabetes'] },
  { name: 'Probiotic supplementation', outcomes: ['prevents antibiotic-associated diarrhoea', 'reduces necrotising enterocolitis', 'shortens the duration of acute gastroenteritis'], populations: ['hospitalised adults on antibiotics', 'preterm infants', 'children under five'] },
  { name: 'Intensive blood-pressure control (systolic below 120 mmHg)', outcomes: ['reduces major cardiovascular events', 'lowers the risk of mild cognitive impairment', 'reduces heart failure'], populations: ['adults over 50 at high cardiovascular risk', 'adults with chronic kidney disease', 'older adults without diabetes'] },
  { name: 'Influenza vaccination', outcomes: ['reduces major cardiovascular events', 'lowers hospitalisation for pneumonia', 'reduces all-cause mortality'], populations: ['patients after a myocardial infarction', 'adults over 65', 'nursing-home residents'] },
  { name: 'Structured exercise training', outcomes: ['improves quality of life', 'reduces hospital readmission', 'lowers HbA1c'], populations: ['patients with heart failure', 'adults with type 2 diabetes', 'cancer survivors'] },
  { name: 'Melatonin', outcomes: ['prevents delirium', 'shortens sleep-onset latency', 'reduces migraine frequency'], populations: ['older patients admitted to intensive care', 'children with autism spectrum disorder', 'adults with episodic migraine'] }
]

const DESIGNS = ['double-blind randomised trial', 'pragmatic randomised trial', 'cluster-randomised trial', 'multicentre placebo-controlled trial']

function supportFor(rng: Rng): string {
  const rr = 12 + rng.int(30)
  switch (rng.int(4)) {
    case 0:
      return `the largest ${rng.pick(DESIGNS)} reported a ${rr}% relative reduction on the primary outcome`
    case 1:
      return `a meta-analysis of ${4 + rng.int(20)} trials points the same way (RR 0.${String(95 - rr).padStart(2, '0')})`
    case 2:
      return 'the effect held in the pre-registered primary analysis, not just in subgroups'
    default:
      return 'there is a plausible mechanism and a consistent dose–response across trials'
  }
}

function againstFor(rng: Rng): string {
  const hr = (0.9 + rng.int(18) / 100).toFixed(2)
  switch (rng.int(4)) {
    case 0:
      return `the ${rng.pick(DESIGNS)} found no significant difference (HR ${hr}, CI crossing 1)`
    case 1:
      return 'the benefit appears only in observational cohorts, where confounding by indication is likely'
    case 2:
      return 'the largest trial was stopped early for futility'
    default:
      return 'the positive results come from small trials with a high risk of bias'
  }
}

export const medClaimQuestions: QuestionMaker = (rng) => {
  const iv = rng.pick(INTERVENTIONS)
  const question = `Claim: ${iv.name} ${rng.pick(iv.outcomes)} in ${rng.pick(iv.populations)}. True or false?`
  const gold = rng.int(2)
  return {
    question,
    candidates: ['true', 'false'],
    gold,
    distractor: 1 - gold,
    argue: (c, r) => (c === 0 ? supportFor(r) : againstFor(r))
  }
}
