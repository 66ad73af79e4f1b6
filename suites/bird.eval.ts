import { defineBenchmark } from '../core/suite.ts';
import { suiteStrategies } from './strategy-inputs.ts';
import { birdSpec } from './registry.ts';

// BIRD-SQL on the fixture databases: every question × the six feedback strategies, plus HERO-T and
// its baselines, which see the database through the oracle's observer (see registry.ts for EX/VES).
const spec = birdSpec();
defineBenchmark({ ...spec, strategies: suiteStrategies(spec) });
