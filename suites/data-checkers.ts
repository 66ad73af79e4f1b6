/** The dataset checkers behind `witness data check`, one per suite. */
import type { SuiteName } from '../core/config-sections.ts';
import type { DataReport } from '../core/data-report.ts';
import { checkCypherBenchData } from '../oracles/cypher/data-check.ts';
import { checkBigCodeBenchData } from '../oracles/python/bigcodebench/data-check.ts';
import { checkDsCodeBenchData } from '../oracles/python/dscodebench/data-check.ts';
import { checkNlRxData } from '../oracles/regex/data-check.ts';
import { checkBirdData } from '../oracles/sql/data-check.ts';

export type DataChecker = (data: string) => DataReport | Promise<DataReport>;

export const DATA_CHECKERS: Record<SuiteName, DataChecker> = {
  bird: checkBirdData,
  'nl-rx': checkNlRxData,
  cypherbench: checkCypherBenchData,
  bigcodebench: checkBigCodeBenchData,
  dscodebench: checkDsCodeBenchData,
};
