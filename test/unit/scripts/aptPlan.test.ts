import assert from 'node:assert/strict';
import { test } from 'node:test';
// @ts-expect-error plain ESM script without types
import { aptPlanLine } from '../../../scripts/e2eSetup.mjs';

test("apt's plan in words: what is downloaded, out of what, and the disk it takes", () => {
  // What a fresh install printed on a Debian 12 machine that had git and libx11-dev already.
  const fresh = '14 upgraded, 47 newly installed, 0 to remove and 122 not upgraded.\nNeed to get 113 MB/133 MB of archives.\nAfter this operation, 439 MB of additional disk space will be used.\n';
  assert.equal(aptPlanLine(fresh), "apt will download 113 MB (of 133 MB; the rest is in apt's cache) and use 439 MB more on disk");
  assert.equal(aptPlanLine('Need to get 80.2 MB of archives.\nAfter this operation, 290 MB of additional disk space will be used.\n'), 'apt will download 80.2 MB and use 290 MB more on disk');
  assert.equal(aptPlanLine('0 upgraded, 0 newly installed.\n'), undefined);
});
