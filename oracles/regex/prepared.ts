/** A regex task after preparation: the compiled gold and its stable hidden cases. */
import type { PreparedTask } from '../../core/oracle.ts';
import type { Dialect, RegexNode } from './ast.ts';
import type { CompiledRegex } from './compile.ts';
import type { RegexCase } from './hidden-tests.ts';

export interface RegexPrepared extends PreparedTask {
  goldDialect: Dialect;
  gold: CompiledRegex;
  goldNode: RegexNode;
  cases: RegexCase[];
}
