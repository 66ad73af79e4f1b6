/** The dataset checkers behind `witness data check`, one per suite that has one. */
import type { SuiteName } from '../core/config-sections.ts';
import type { DataReport } from '../core/data-report.ts';
import { checkNlRxData } from '../oracles/regex/data-check.ts';
import { checkBirdData } from '../oracles/sql/data-check.ts';

export type DataChecker = (data: string) => DataReport | Promise<DataReport>;

// Partial until every suite has a checker: `witness data check` says when one has none yet.
export const DATA_CHECKERS: Partial<Record<SuiteName, DataChecker>> = {
  bird: checkBirdData,
  'nl-rx': checkNlRxData,
};
