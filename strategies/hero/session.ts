/** The refiner's view of an episode (defined in core, where the harness implements it). */
export type { RefinementSession } from '../../core/refinement.ts';
