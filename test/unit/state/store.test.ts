import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStore, subscribeSelector } from '../../../src/shared/store';

describe('createStore', () => {
  it('applies a functional updater against the current state', () => {
    const store = createStore({ n: 1 });
    store.setState((s) => ({ n: s.n + 1 }));
    store.setState((s) => ({ n: s.n * 10 }));
    assert.equal(store.getState().n, 20);
  });

  it('bails out when the updater returns the same object', () => {
    const store = createStore({ n: 1 });
    let calls = 0;
    let changes = 0;
    const s2 = createStore({ n: 1 }, () => changes++);
    store.subscribe(() => calls++);
    s2.subscribe(() => calls++);
    store.setState((s) => s);
    s2.setState((s) => s);
    assert.equal(calls, 0);
    assert.equal(changes, 0);
  });

  it('uses Object.is, so NaN to NaN is no change and +0 to -0 is one', () => {
    const store = createStore<number>(NaN);
    let calls = 0;
    store.subscribe(() => calls++);
    store.setState(() => NaN);
    assert.equal(calls, 0);
    const zero = createStore<number>(0);
    let zeroCalls = 0;
    zero.subscribe(() => zeroCalls++);
    zero.setState(() => -0);
    assert.equal(zeroCalls, 1);
  });

  it('calls onChange with old and new state before any listener', () => {
    const order: string[] = [];
    const store = createStore({ n: 1 }, ({ oldState, newState }) => order.push(`change ${oldState.n}->${newState.n}`));
    store.subscribe(() => order.push(`listener sees ${store.getState().n}`));
    store.setState(() => ({ n: 2 }));
    assert.deepEqual(order, ['change 1->2', 'listener sees 2']);
  });

  it('keeps listeners in a set and returns an unsubscribe', () => {
    const store = createStore({ n: 0 });
    let calls = 0;
    const listener = () => calls++;
    const un1 = store.subscribe(listener);
    store.subscribe(listener);
    store.setState(() => ({ n: 1 }));
    assert.equal(calls, 1, 'the same listener registered twice runs once');
    un1();
    store.setState(() => ({ n: 2 }));
    assert.equal(calls, 1, 'unsubscribed');
  });
});

describe('subscribeSelector', () => {
  it('fires only when the selected slice changes', () => {
    const store = createStore({ a: { v: 1 }, b: 0 });
    const seen: number[] = [];
    subscribeSelector(store, (s) => s.a, (a) => seen.push(a.v));
    store.setState((s) => ({ ...s, b: s.b + 1 }));
    store.setState((s) => ({ ...s, b: s.b + 1 }));
    assert.deepEqual(seen, []);
    store.setState((s) => ({ ...s, a: { v: 2 } }));
    assert.deepEqual(seen, [2]);
  });

  it('passes the previous slice', () => {
    const store = createStore({ n: 1 });
    const pairs: [number, number][] = [];
    subscribeSelector(store, (s) => s.n, (n, prev) => pairs.push([prev, n]));
    store.setState(() => ({ n: 5 }));
    assert.deepEqual(pairs, [[1, 5]]);
  });
});
