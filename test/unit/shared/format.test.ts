import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDuration, formatWhen } from '../../../src/shared/format';

describe('formatDuration', () => {
  it('says nothing under 0.1 s, so fast tools do not all read "0.0 s"', () => {
    for (const ms of [0, 1, 40, 99, undefined, Number.NaN, -5]) assert.equal(formatDuration(ms), undefined, String(ms));
  });
  it('tenths under 10 s, whole seconds under a minute, then minutes', () => {
    assert.equal(formatDuration(100), '0.1 s');
    assert.equal(formatDuration(1234), '1.2 s');
    assert.equal(formatDuration(9999), '9.9 s');
    assert.equal(formatDuration(14_400), '14 s');
    assert.equal(formatDuration(60_000), '1 min');
    assert.equal(formatDuration(125_000), '2 min 5 s');
  });
});

describe('formatWhen', () => {
  const now = new Date(2025, 5, 18, 15, 30).getTime();
  it('recent times are relative', () => {
    assert.equal(formatWhen(now - 30_000, now), 'just now');
    assert.equal(formatWhen(now - 12 * 60_000, now), '12 min ago');
  });
  it('today, yesterday, this year and earlier years each read one way', () => {
    assert.equal(formatWhen(new Date(2025, 5, 18, 9, 5).getTime(), now), 'today 09:05');
    assert.equal(formatWhen(new Date(2025, 5, 17, 23, 59).getTime(), now), 'yesterday 23:59');
    assert.equal(formatWhen(new Date(2025, 2, 4, 14, 5).getTime(), now), 'Mar 4, 14:05');
    assert.equal(formatWhen(new Date(2024, 11, 31, 8, 0).getTime(), now), 'Dec 31, 2024');
  });
  it('a time in the future (another machine\'s clock) still reads as a date', () => {
    assert.equal(formatWhen(new Date(2025, 5, 18, 18, 0).getTime(), now), 'today 18:00');
  });
});

describe('counts and token figures in sentences', () => {
  it('"1 message", never "1 messages"; small token figures are not "0k"', async () => {
    const { counted, formatTokens } = await import('../../../src/shared/format');
    assert.equal(counted(1, 'message'), '1 message');
    assert.equal(counted(0, 'message'), '0 messages');
    assert.equal(counted(2, 'match', 'matches'), '2 matches');
    const { describeCompaction } = await import('../../../src/agent/compaction');
    const one = describeCompaction([{ role: 'user', content: 'hi' }], 310, []);
    assert.match(one, /^Summarises 1 message \(about 310 tokens\)/);
    assert.doesNotMatch(one, /0k/);
    assert.equal(formatTokens(310), '310');
  });
});
