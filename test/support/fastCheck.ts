import fc from 'fast-check';

/**
 * fast-check for the unit tests, with one fixed seed, so `npm test` draws the same cases on every
 * machine: a CI run must not turn red on a case one random seed happened to draw (it did, twice,
 * in the floor and Claude Code import properties). PROPERTY_SEED=random explores new cases;
 * PROPERTY_SEED=<n> replays the seed a failure printed.
 */
const wanted = process.env.PROPERTY_SEED;
if (wanted !== 'random') {
  const seed = Number(wanted ?? 20261123);
  if (!Number.isInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer or "random", not ${JSON.stringify(wanted)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}

export { fc };
