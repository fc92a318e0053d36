import type { QuestionMaker } from '../config'
import type { Rng } from '../prng'
import { shuffledItem } from './item'

/**
 * General-knowledge questions with three options ("Trivia", K = 3). Real facts, each listed as
 * [question, correct, most plausible wrong, other wrong]; the plausible wrong answer is the task's
 * distractor, the one weak seats and adversaries tend to pick.
 */
const FACTS: [string, string, string, string][] = [
  ['What is the capital of Australia?', 'Canberra', 'Sydney', 'Melbourne'],
  ['What is the capital of Canada?', 'Ottawa', 'Toronto', 'Montreal'],
  ['What is the capital of Turkey?', 'Ankara', 'Istanbul', 'Izmir'],
  ['What is the capital of Brazil?', 'Brasília', 'Rio de Janeiro', 'São Paulo'],
  ['What is the capital of Switzerland?', 'Bern', 'Zurich', 'Geneva'],
  ['What is the capital of New Zealand?', 'Wellington', 'Auckland', 'Christchurch'],
  ['What is the capital of Morocco?', 'Rabat', 'Casablanca', 'Marrakesh'],
  ['What is the capital of Nigeria?', 'Abuja', 'Lagos', 'Kano'],
  ['What is the capital of Pakistan?', 'Islamabad', 'Karachi', 'Lahore'],
  ['Which element has the chemical symbol Fe?', 'Iron', 'Fermium', 'Francium'],
  ['Which element has the chemical symbol Pb?', 'Lead', 'Palladium', 'Platinum'],
  ['Which element has the chemical symbol Na?', 'Sodium', 'Neon', 'Nitrogen'],
  ['Which element has the chemical symbol K?', 'Potassium', 'Krypton', 'Calcium'],
  ['Which element has the chemical symbol Ag?', 'Silver', 'Argon', 'Gold'],
  ['Which element has the chemical symbol W?', 'Tungsten', 'Vanadium', 'Xenon'],
  ['Who wrote "Middlemarch"?', 'George Eliot', 'Elizabeth Gaskell', 'Charlotte Brontë'],
  ['Who wrote "One Hundred Years of Solitude"?', 'Gabriel García Márquez', 'Mario Vargas Llosa', 'Jorge Luis Borges'],
  ['Who wrote "The Brothers Karamazov"?', 'Fyodor Dostoevsky', 'Leo Tolstoy', 'Anton Chekhov'],
  ['Who wrote "Things Fall Apart"?', 'Chinua Achebe', 'Wole Soyinka', 'Ngũgĩ wa Thiong\'o'],
  ['Who wrote "Mrs Dalloway"?', 'Virginia Woolf', 'Katherine Mansfield', 'E. M. Forster'],
  ['Who wrote "The Remains of the Day"?', 'Kazuo Ishiguro', 'Ian McEwan', 'Julian Barnes'],
  ['Which planet has the shortest year?', 'Mercury', 'Venus', 'Mars'],
  ['Which planet is the largest in the Solar System?', 'Jupiter', 'Saturn', 'Neptune'],
  ['What is the hardest naturally occurring mineral?', 'Diamond', 'Corundum', 'Quartz'],
  ['Which organelle produces most of a cell\'s ATP?', 'Mitochondrion', 'Ribosome', 'Golgi apparatus'],
  ['Which gas makes up most of Earth\'s atmosphere?', 'Nitrogen', 'Oxygen', 'Argon'],
  ['What is the SI unit of electrical resistance?', 'Ohm', 'Siemens', 'Volt'],
  ['A deficiency of which vitamin causes scurvy?', 'Vitamin C', 'Vitamin D', 'Vitamin B12'],
  ['Which hormone lowers blood glucose?', 'Insulin', 'Glucagon', 'Cortisol'],
  ['In which year did the Berlin Wall fall?', '1989', '1991', '1987'],
  ['Who was the first person to walk on the Moon?', 'Neil Armstrong', 'Buzz Aldrin', 'Yuri Gagarin'],
  ['Which civilisation built Machu Picchu?', 'Inca', 'Aztec', 'Maya'],
  ['Which treaty ended the First World War between Germany and the Allies?', 'Treaty of Versailles', 'Treaty of Brest-Litovsk', 'Treaty of Trianon'],
  ['Who painted "The Night Watch"?', 'Rembrandt', 'Johannes Vermeer', 'Frans Hals'],
  ['Who composed "The Rite of Spring"?', 'Igor Stravinsky', 'Sergei Prokofiev', 'Claude Debussy'],
  ['What is the longest river in South America?', 'Amazon', 'Paraná', 'Orinoco'],
  ['What is the largest hot desert in the world?', 'Sahara', 'Arabian Desert', 'Kalahari'],
  ['What is the highest mountain in Africa?', 'Kilimanjaro', 'Mount Kenya', 'Mount Stanley'],
  ['Which ocean is the deepest?', 'Pacific', 'Atlantic', 'Indian'],
  ['What is the smallest country in the world by area?', 'Vatican City', 'Monaco', 'San Marino'],
  ['Who completed the proof of Fermat\'s Last Theorem in 1994?', 'Andrew Wiles', 'Richard Taylor', 'Gerd Faltings'],
  ['What is the chemical formula of table salt?', 'NaCl', 'KCl', 'NaHCO3'],
  ['Which language has the most native speakers?', 'Mandarin Chinese', 'Spanish', 'English'],
  ['Which blood cells carry oxygen?', 'Red blood cells', 'Platelets', 'White blood cells'],
  ['Which bone is the longest in the human body?', 'Femur', 'Tibia', 'Humerus'],
  ['Who developed the first successful polio vaccine?', 'Jonas Salk', 'Albert Sabin', 'Louis Pasteur']
]

function argueFor(label: string, rng: Rng): string {
  switch (rng.int(4)) {
    case 0:
      return `${label} is what the standard references give`
    case 1:
      return `the other options are common confusions, and ${label} is the one that fits`
    case 2:
      return `I am fairly sure it is ${label}; it matches every part of the question`
    default:
      return `${label} is the textbook answer here`
  }
}

export const triviaQuestions: QuestionMaker = (rng) => {
  const [question, ...answers] = rng.pick(FACTS)
  return shuffledItem(rng, question, answers, (label, _isGold, r) => argueFor(label, r))
}
