/**
 * Steering catalogs for the steerable sim: the named classes of mistakes an oracle's simulator can
 * make, the rule text that addresses each class, and misleading rules that provoke one. A prompt
 * "carries" a rule when every keyword group of the rule has at least one term in the prompt text
 * (case-insensitive; a term matches at the start of a word, so `quantif` matches "quantifiers").
 * Pure functions only: the catalogs live in the oracle folders (oracles/<family>/steering.ts).
 */

/** A named kind of mistake, with the rule that makes it rarer. */
export interface MutationClass {
  name: string;
  /** The mistake in a few words (for docs and reports). */
  summary: string;
  /** The instruction that addresses the mistake: a prompt carrying it makes the class rarer. */
  rule: string;
  /** Every group needs one term in the prompt for the prompt to carry the rule (a close paraphrase matches too). */
  keywords: readonly (readonly string[])[];
  /** Its mistakes fail to run (a syntax error, an unknown name): an observation of the program shows them. */
  failsToRun?: boolean;
}

/** A misleading instruction: a prompt carrying it makes the class it `provokes` more frequent. */
export interface HarmfulRule {
  name: string;
  text: string;
  keywords: readonly (readonly string[])[];
  /** Name of the MutationClass this rule makes more frequent. */
  provokes: string;
}

/** What an oracle's simulator offers the steerable sim. */
export interface SteeringCatalog {
  /** Mistake classes, in the order they are applied (classes that fail to run come last). */
  classes: readonly MutationClass[];
  harmful: readonly HarmfulRule[];
}

/** Which classes a prompt addresses (helpful rules it carries) and which it provokes (harmful ones). */
export interface SteeringEffect {
  addressed: string[];
  provoked: string[];
}

/** How strongly rules steer the class rates. */
export interface SteeringRates {
  /** Probability that the first answer has a mistake of an applicable class, with no rule in the prompt. */
  mistakeRate: number;
  /** Factor on a class's rate when the prompt carries its rule (0.1 = ten times rarer). */
  ruleFactor: number;
  /** Factor on a class's rate when the prompt carries a harmful rule provoking it (capped at 1). */
  harmFactor: number;
}

const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `text` has at least one term of every keyword group (word-start, case-insensitive). */
export function carriesKeywords(text: string, keywords: readonly (readonly string[])[]): boolean {
  if (keywords.length === 0) return false;
  return keywords.every((group) =>
    group.some((term) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(term)}`, 'iu').test(text)),
  );
}

/** The rules a prompt carries, by class name. */
export function steeringOf(catalog: SteeringCatalog, promptText: string): SteeringEffect {
  return {
    addressed: catalog.classes.filter((c) => carriesKeywords(promptText, c.keywords)).map((c) => c.name),
    provoked: [
      ...new Set(catalog.harmful.filter((h) => carriesKeywords(promptText, h.keywords)).map((h) => h.provokes)),
    ],
  };
}

/** The probability of a mistake of class `name` in a first answer under a prompt's effect. */
export function classRate(name: string, effect: SteeringEffect, rates: SteeringRates): number {
  let rate = rates.mistakeRate;
  if (effect.addressed.includes(name)) rate *= rates.ruleFactor;
  if (effect.provoked.includes(name)) rate *= rates.harmFactor;
  return Math.min(1, rate);
}

/** Checks a catalog: unique class names, every harmful rule provokes a known class, every rule carries its own keywords. */
export function catalogProblems(catalog: SteeringCatalog): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const c of catalog.classes) {
    if (names.has(c.name)) problems.push(`class ${c.name} is listed twice`);
    names.add(c.name);
    if (!carriesKeywords(c.rule, c.keywords))
      problems.push(`class ${c.name}: its rule text does not carry its keywords`);
  }
  for (const h of catalog.harmful) {
    if (!names.has(h.provokes)) problems.push(`harmful rule ${h.name} provokes an unknown class ${h.provokes}`);
    if (!carriesKeywords(h.text, h.keywords))
      problems.push(`harmful rule ${h.name}: its text does not carry its keywords`);
    for (const c of catalog.classes)
      if (carriesKeywords(h.text, c.keywords))
        problems.push(`harmful rule ${h.name} also carries the rule of ${c.name}`);
  }
  return problems;
}
