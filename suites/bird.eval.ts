import { runConfig } from '../core/run-config.ts';
import { defineBenchmark } from '../core/suite.ts';
import { birdSpec } from '../oracles/sql/spec.ts';
import { suiteStrategies } from './strategy-inputs.ts';

// BIRD-SQL on the fixture databases: every question × the six feedback strategies, plus HERO-T and
// its baselines, which see the database through the oracle's observer (see oracles/sql/suite.ts for EX/VES).
const { config } = runConfig();
const spec = birdSpec(config);
defineBenchmark({ ...spec, strategies: suiteStrategies(spec, config.run.strategies) });
