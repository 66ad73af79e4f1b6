/**
 * `witness data check --suite nl-rx`: validates an NL-RX-Turk folder in every layout it holds — the
 * raw `src.txt` / `targ.txt` and DeepRegex's tokenized split files: files aligned line by line, no
 * empty line, no placeholder in the raw files, every gold a brics regex that parses (naming the
 * line), the official counts, and the raw release recognized by size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { dataReport, type DataFinding, type DataReport } from '../../core/data-report.ts';
import { parseBrics } from './brics.ts';
import { detokenize, hasPlaceholders } from './deepregex-tokens.ts';
import { NLRX_SOURCE, NLRX_SPLITS, nlRxSplitsIn, readLines, resolveNlRxFiles, type NlRxSplit } from './loader.ts';

/** NL-RX-Turk as published in nicholaslocascio/deep-regex (datasets/NL-RX-Turk). */
export const NLRX_TURK_RELEASE = {
  name: 'NL-RX-Turk (deep-regex, datasets/NL-RX-Turk)',
  src: { bytes: 615_567, sha256: 'c4abd0cf27ad44fabb8a1c198bc5698fae2424287d4b054b31f670f4c33dc81c' },
  targ: { bytes: 269_898, sha256: 'cf7c6126d2e1cbd4fbc171421dad1e7f2860f93f9153ea0eb24555d6ed5e8b67' },
};

/** The official number of pairs per split (DeepRegex's paper split of the 10,000). */
const OFFICIAL_PAIRS: Record<NlRxSplit, number> = { all: 10_000, train: 6_500, val: 1_000, test: 2_500 };

/** At most this many findings of one kind per file are listed; the rest are counted in one line. */
const MAX_LISTED = 50;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The raw release recognized by size and checksum, with what differs when it is not. */
function recognize(src: string, targ: string): { release?: string; finding: DataFinding } {
  const files = { src, targ };
  const differs = (['src', 'targ'] as const).flatMap((key) => {
    const known = NLRX_TURK_RELEASE[key];
    const bytes = statSync(files[key]).size;
    if (bytes !== known.bytes)
      return [
        `${key}.txt has ${bytes.toLocaleString('en-US')} bytes (official: ${known.bytes.toLocaleString('en-US')})`,
      ];
    return sha256(files[key]) === known.sha256 ? [] : [`${key}.txt has the official size but another SHA-256`];
  });
  if (differs.length === 0)
    return {
      release: NLRX_TURK_RELEASE.name,
      finding: { level: 'info', message: `the official ${NLRX_TURK_RELEASE.name}: sizes and SHA-256 match` },
    };
  return { finding: { level: 'info', message: `not the official release: ${differs.join('; ')}` } };
}

/** Checks one split's pair of files; adds its count. */
function checkSplit(data: string, split: NlRxSplit, counts: Record<string, number>): DataFinding[] {
  const files = resolveNlRxFiles(data, split);
  const rel = (path: string) => relative(data, path) || path;
  const src = readLines(files.src);
  const targ = readLines(files.targ);
  const findings: DataFinding[] = [];
  counts[`${split}.pairs`] = Math.min(src.length, targ.length);
  if (src.length !== targ.length)
    findings.push({
      level: 'error',
      path: rel(files.src),
      message: `${src.length} lines but ${rel(files.targ)} has ${targ.length}; the files must align line by line`,
    });
  const listed = new Map<string, { path: string; n: number }>();
  const add = (path: string, line: number, message: string, kind: string) => {
    const entry = listed.get(`${kind}\0${path}`) ?? { path, n: 0 };
    listed.set(`${kind}\0${path}`, { path, n: entry.n + 1 });
    if (entry.n < MAX_LISTED) findings.push({ level: 'error', path: rel(path), item: `line ${line}`, message });
  };
  let invalid = 0;
  src.forEach((text, i) => {
    if (text.trim() === '') add(files.src, i + 1, 'empty description', 'empty');
  });
  targ.forEach((text, i) => {
    const line = i + 1;
    const raw = text.trim();
    if (raw === '') return add(files.targ, line, 'empty regex', 'empty');
    if (!files.tokenized && hasPlaceholders(raw))
      return add(
        files.targ,
        line,
        'uses DeepRegex placeholders (<M0>, <NUM>, …): a tokenized line in a raw file',
        'tokens',
      );
    try {
      parseBrics(files.tokenized ? detokenize(raw) : raw);
    } catch (error) {
      invalid++;
      add(files.targ, line, `not a brics regex: ${(error as Error).message}`, 'parse');
    }
  });
  for (const { path, n } of listed.values())
    if (n > MAX_LISTED)
      findings.push({ level: 'error', path: rel(path), message: `${n - MAX_LISTED} more lines like the above` });
  counts[`${split}.invalidGolds`] = invalid;
  const official = OFFICIAL_PAIRS[split];
  if (targ.length !== official)
    findings.push({
      level: 'info',
      path: rel(files.targ),
      message: `${targ.length} lines (the official ${split === 'all' ? 'NL-RX-Turk' : `DeepRegex ${split} split`} has ${official.toLocaleString('en-US')})`,
    });
  return findings;
}

/** The data report of an NL-RX-Turk folder (see the module comment). */
export function checkNlRxData(data: string): DataReport {
  const base = { suite: 'nl-rx', data, source: NLRX_SOURCE };
  if (!existsSync(data))
    return dataReport({ ...base, counts: {}, findings: [{ level: 'error', path: data, message: 'not found' }] });
  const splits = nlRxSplitsIn(data);
  const counts: Record<string, number> = {};
  if (splits.length === 0) {
    const lone = existsSync(join(data, 'targ.txt')) ? ' (targ.txt alone is not a dataset: src.txt is missing)' : '';
    return dataReport({
      ...base,
      counts,
      findings: [
        {
          level: 'error',
          path: data,
          message: `no NL-RX-Turk files: expected src.txt + targ.txt, or DeepRegex's ${NLRX_SPLITS.slice(1)
            .map((s) => `src-${s}.txt + targ-${s}.txt`)
            .join(', ')}${lone}`,
        },
      ],
    });
  }
  const findings = splits.flatMap((split) => checkSplit(data, split, counts));
  let release: string | undefined;
  if (splits.includes('all')) {
    const files = resolveNlRxFiles(data, 'all');
    const recognized = recognize(files.src, files.targ);
    release = recognized.release;
    findings.push({ ...recognized.finding, path: relative(data, files.targ) || files.targ });
  }
  return dataReport({ ...base, counts, findings, ...(release ? { release } : {}) });
}
