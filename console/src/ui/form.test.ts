import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../api/client';
import { fieldErrorsOf, validateBy } from './form';

const schema = z.strictObject({
  name: z.string().min(1, 'must not be empty'),
  size: z.array(z.int('must be whole').min(1, 'must be at least 1')),
});

describe("a form's validation by the service's schema", () => {
  const validate = validateBy(schema, (values: { name: string; size: string }) => ({
    name: values.name.trim(),
    size: values.size.split('x').map(Number),
  }));

  it('finds nothing wrong in what the service would accept', () => {
    expect(validate({ name: 'Hall', size: '1920x1080' })).toEqual({});
  });

  it('checks what the form will send, not its fields as typed', () => {
    expect(validate({ name: '   ', size: '1920x1080' })).toEqual({ name: 'must not be empty' });
  });

  it('puts each problem on the field of its path, the first one where a field has several', () => {
    expect(validate({ name: '', size: '0x1.5' })).toEqual({
      name: 'must not be empty',
      'size.0': 'must be at least 1',
      'size.1': 'must be whole',
    });
    const strict = validateBy(z.string().min(3, 'too short').regex(/^a/, 'must start with a'), String);
    expect(strict('b')).toEqual({ '': 'too short' });
  });
});

describe("a refusal's details on the form", () => {
  it("puts the service's messages on the fields they name, without the body's prefix", () => {
    const refusal = new ApiError(400, 'invalid', 'bad request', [
      { path: 'body.name', message: 'is taken' },
      { path: 'body.size.1', message: 'must be at least 1' },
      { path: '', message: 'a whole-body problem' },
    ]);
    expect(fieldErrorsOf(refusal)).toEqual({ name: 'is taken', 'size.1': 'must be at least 1' });
  });

  it('puts nothing on the fields for any other failure', () => {
    expect(fieldErrorsOf(new Error('network down'))).toEqual({});
    expect(fieldErrorsOf(new ApiError(0, 'network', 'cannot be reached'))).toEqual({});
  });
});
