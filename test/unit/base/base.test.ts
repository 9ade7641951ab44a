import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../../src/base/event';
import { setUnexpectedErrorHandler } from '../../../src/base/unexpectedError';
import { DisposableStore, toDisposable } from '../../../src/base/lifecycle';
import { sequential } from '../../../src/base/sequential';

describe('DisposableStore', () => {
  it('disposes everything once, even when one throws', () => {
    const store = new DisposableStore();
    const seen: string[] = [];
    store.add(toDisposable(() => seen.push('a')));
    store.add(toDisposable(() => {
      throw new Error('boom');
    }));
    store.add(toDisposable(() => seen.push('c')));
    assert.throws(() => store.dispose(), /boom/);
    assert.deepEqual(seen, ['a', 'c']);
    store.dispose();
    assert.deepEqual(seen, ['a', 'c']);
  });

  it('disposes at once what is added after disposal', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.add(toDisposable(() => (disposed = true)));
    assert.equal(disposed, true);
  });
});

describe('Emitter', () => {
  it('delivers to every listener even when one throws, and reports the error', () => {
    const errors: unknown[] = [];
    const restore = setUnexpectedErrorHandler((e) => errors.push(e));
    try {
      const e = new Emitter<number>();
      const seen: number[] = [];
      e.event(() => {
        throw new Error('boom');
      });
      e.event((v) => seen.push(v));
      e.fire(7);
      assert.deepEqual(seen, [7]);
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]), /boom/);
    } finally {
      restore();
    }
  });

  it('delivers to listeners and stops after their disposable is disposed', () => {
    const e = new Emitter<number>();
    const got: number[] = [];
    const sub = e.event((n) => got.push(n));
    e.fire(1);
    sub.dispose();
    e.fire(2);
    assert.deepEqual(got, [1]);
  });
});

describe('sequential', () => {
  it('never runs two calls at once and keeps each result', async () => {
    let running = 0;
    let maxRunning = 0;
    const fn = sequential(async (n: number) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setImmediate(r));
      running--;
      if (n === 2) throw new Error('two');
      return n * 10;
    });
    const results = await Promise.allSettled([fn(1), fn(2), fn(3)]);
    assert.equal(maxRunning, 1);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [10, 'two', 30],
    );
  });
});
