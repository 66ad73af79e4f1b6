/**
 * Per-database state the oracle shares between tasks: the schema, a read-only connection for
 * trusted reads and prepare-only checks (mutants), the database image and rowids for perturbed
 * copies, and the hidden perturbed copies themselves (temporary files, made once per database).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { deriveSeed, Rng } from '../../core/random.ts';
import { perturbImage, readRowids, scrambleEdits } from './perturb.ts';
import { readSchema, type SchemaInfo } from './schema.ts';
import { prepareStatement } from './sql-text.mjs';

export interface DatabaseContextOptions {
  /** Databases larger than this get no perturbed copies (and no hardening probes). */
  maxImageBytes: number;
  /** Hidden perturbed copies to make. */
  perturbedCopies: number;
  seed: number;
  /** Folder for the copies (created by the caller, removed on dispose). */
  scratchDir: () => string;
}

export interface HiddenCopy {
  id: string;
  path: string;
}

export class DatabaseContext {
  readonly schema: SchemaInfo;
  /** The database file's bytes, when small enough to perturb. */
  readonly image: Buffer | null;
  readonly rowids: Map<string, number[]>;
  readonly hidden: HiddenCopy[];
  private readonly connection: Database.Database;
  private readonly preparable = new Map<string, boolean>();

  constructor(
    readonly path: string,
    options: DatabaseContextOptions,
  ) {
    this.connection = new Database(path, { readonly: true, fileMustExist: true });
    this.schema = readSchema(this.connection);
    const small = statSync(path).size <= options.maxImageBytes;
    this.image = small ? readFileSync(path) : null;
    this.rowids = small ? readRowids(this.connection, this.schema) : new Map();
    this.hidden = [];
    if (!this.image) return;
    const name = basename(path).replace(/\.sqlite$/, '');
    for (let k = 1; k <= options.perturbedCopies; k++) {
      const rng = new Rng(deriveSeed(options.seed, 'perturbed-copy', name, k));
      const copy = perturbImage(this.image, this.schema, scrambleEdits(this.schema, this.rowids, rng));
      const file = join(options.scratchDir(), `${name}-${deriveSeed(0, path).toString(16)}-perturbed-${k}.sqlite`);
      writeFileSync(file, copy.bytes);
      this.hidden.push({ id: `perturbed-${k}`, path: file });
    }
  }

  /** Would SQLite (with legacy double-quoted strings) prepare this as a read-only query? Never runs it. */
  canPrepare(sql: string): boolean {
    let ok = this.preparable.get(sql);
    if (ok === undefined) {
      try {
        const { statement } = prepareStatement((text) => this.connection.prepare(text), sql);
        ok = statement.readonly && statement.reader;
      } catch {
        ok = false;
      }
      this.preparable.set(sql, ok);
    }
    return ok;
  }

  /** Trusted reads on the read-only connection (our own statements, never a candidate's). */
  read<T>(use: (db: Database.Database) => T): T {
    return use(this.connection);
  }

  close(): void {
    this.connection.close();
  }
}
