import { checkJsonSchema, normalizeSchemaForModel, schemaViolations } from './json-schema';

describe('JSON Schema checks', () => {
  it('accepts valid draft-07 and 2020-12 schemas and validates values against them', () => {
    const check = checkJsonSchema({
      type: 'object',
      properties: { price: { type: 'number' } },
      required: ['price'],
    });
    if (!check.valid) throw new Error(check.message);
    expect(schemaViolations(check.validate, { price: 3 })).toBeUndefined();
    expect(schemaViolations(check.validate, { price: 'three' })).toContain('/price must be number');
    const modern = checkJsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
    });
    expect(modern.valid).toBe(true);
  });

  it('rejects schemas that break the meta-schema or cannot be resolved', () => {
    const badType = checkJsonSchema({ type: 'strnig' });
    expect(badType.valid).toBe(false);
    if (!badType.valid) expect(badType.message).toMatch(/^Invalid JSON schema: /);
    expect(checkJsonSchema({ type: 'object', required: 'title' }).valid).toBe(false);
    expect(checkJsonSchema({ $ref: '#/definitions/missing' }).valid).toBe(false);
    expect(checkJsonSchema({ type: 'object', properties: { a: { minLength: -1 } } }).valid).toBe(false);
  });

  it('normalises for structured output: drops additionalProperties and prunes required names without a property', () => {
    const normalized = normalizeSchemaForModel({
      type: 'object',
      additionalProperties: false,
      properties: {
        additionalProperties: { type: 'string' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: true,
            properties: { a: { type: 'string' } },
            required: ['a', 'b'],
          },
        },
      },
      required: ['items', 'ghost'],
    });
    expect(normalized).toEqual({
      type: 'object',
      properties: {
        additionalProperties: { type: 'string' },
        items: {
          type: 'array',
          items: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        },
      },
      required: ['items'],
    });
  });
});
