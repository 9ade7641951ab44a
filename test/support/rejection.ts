import assert from 'node:assert/strict';

/** The error a promise rejects with (for tests that look inside it); fails the test if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected the call to throw');
}
