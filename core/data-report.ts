/**
 * What `witness data check` says about a dataset folder: every finding names the file (and line or
 * item) it is about, and a folder that cannot run says where the official release is published.
 */

export type FindingLevel = 'error' | 'warning' | 'info';

export interface DataFinding {
  level: FindingLevel;
  message: string;
  /** The file or folder the finding is about, relative to the checked folder where possible. */
  path?: string;
  /** The item (question id, task id, line number) inside `path`. */
  item?: string;
}

export interface DataReport {
  suite: string;
  /** The folder or file that was checked, as given. */
  data: string;
  /** True when there is no error-level finding: the suite can run on this data. */
  ok: boolean;
  /** What was found, e.g. { questions: 1534, databases: 11 }. */
  counts: Record<string, number>;
  /** Known release recognized by checksum, when one matched. */
  release?: string;
  findings: DataFinding[];
  /** Where the official data is published (printed when something is missing). */
  source: { name: string; url: string };
}

/** A data report from its findings (`ok` follows from them). */
export function dataReport(fields: Omit<DataReport, 'ok'>): DataReport {
  return { ...fields, ok: !fields.findings.some((f) => f.level === 'error') };
}

/** How many broken lines of one file a report lists before it only counts the rest. */
const MAX_LINE_FINDINGS = 50;

/** The broken lines a loader found in `file`, as error findings: the first 50, then a count of the rest. */
export function brokenLineFindings(file: string, issues: readonly { item: string; message: string }[]): DataFinding[] {
  const findings: DataFinding[] = issues
    .slice(0, MAX_LINE_FINDINGS)
    .map((issue) => ({ level: 'error', path: file, item: issue.item, message: issue.message }));
  if (issues.length > MAX_LINE_FINDINGS)
    findings.push({
      level: 'error',
      path: file,
      message: `… and ${issues.length - MAX_LINE_FINDINGS} more broken lines`,
    });
  return findings;
}
