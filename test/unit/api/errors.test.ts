import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { classifyError, parseRetryAfter } from '../../../src/api/errors';
import { parseToolInput } from '../../../src/api/messagesClient';

describe('parseRetryAfter', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '3' })), 3000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '250' })), 250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5000);
    assert.equal(parseRetryAfter(new Headers({})), undefined);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' })), undefined);
  });
});

describe('classifyError', () => {
  const apiError = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
    Anthropic.APIError.generate(status, { type: 'error', error: { type, message } }, message, new Headers(headers));

  it('classifies the statuses the retry logic cares about', () => {
    assert.equal(classifyError(apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '2' })).retryAfterMs, 2000);
    assert.equal(classifyError(apiError(429, 'rate_limit_error', 'x')).kind, 'rate_limit');
    assert.equal(classifyError(apiError(529, 'overloaded_error', 'x')).kind, 'overloaded');
    assert.equal(classifyError(apiError(500, 'api_error', 'x')).kind, 'server');
    assert.equal(classifyError(apiError(401, 'authentication_error', 'bad key')).kind, 'auth');
    assert.equal(classifyError(apiError(400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum')).kind, 'prompt_too_long');
    assert.equal(classifyError(apiError(400, 'invalid_request_error', 'messages: bad')).kind, 'invalid_request');
  });

  it('retries only transient failures', () => {
    assert.equal(classifyError(apiError(529, 'overloaded_error', 'x')).retryable, true);
    assert.equal(classifyError(apiError(401, 'authentication_error', 'x')).retryable, false);
    assert.equal(classifyError(apiError(400, 'invalid_request_error', 'x')).retryable, false);
  });
});

describe('parseToolInput', () => {
  it('keeps malformed model input as an object the tool will reject', () => {
    assert.deepEqual(parseToolInput('{"a":1}'), { a: 1 });
    assert.deepEqual(parseToolInput(''), {});
    assert.deepEqual(parseToolInput('{"a":'), { __malformed_input: '{"a":' });
    assert.deepEqual(parseToolInput('[1]'), { __malformed_input: '[1]' });
  });
});

describe('classifyError: messages', () => {
  it('says what the API said, not its JSON body', () => {
    const raw = Anthropic.APIError.generate(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers());
    assert.match(raw.message, /\{"type"/, 'the SDK message is the JSON body');
    const err = classifyError(raw);
    assert.equal(err.message, 'Overloaded (HTTP 529)');
    const tooLong = classifyError(Anthropic.APIError.generate(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 9 tokens > 8 maximum' } }, undefined, new Headers()));
    assert.equal(tooLong.kind, 'prompt_too_long');
    assert.match(tooLong.message, /^prompt is too long: 9 tokens > 8 maximum/);
  });
});
