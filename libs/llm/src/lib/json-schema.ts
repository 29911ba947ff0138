import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type JsonSchema = Record<string, unknown>;

export type SchemaCheck = { valid: true; validate: ValidateFunction } | { valid: false; message: string };

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

const engines = new Map<string, AnyAjv>();
const compiled = new Map<string, SchemaCheck>();
const COMPILED_MAX = 500;

function engineFor(schema: JsonSchema): AnyAjv {
  const dialect = typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  const key = dialect.includes('2020-12') ? '2020' : dialect.includes('2019-09') ? '2019' : 'draft-07';
  let engine = engines.get(key);
  if (!engine) {
    const options = { strict: false, allErrors: true, validateFormats: true, allowUnionTypes: true };
    engine = key === '2020' ? new Ajv2020(options) : key === '2019' ? new Ajv2019(options) : new Ajv(options);
    addFormats(engine as Ajv);
    engines.set(key, engine);
  }
  return engine;
}

/**
 * Checks that `schema` is a valid JSON Schema (its dialect's meta-schema, resolvable references)
 * and compiles it. Invalid schemas are answered 422 by the callers (docs/compatibility.md#errors).
 */
export function checkJsonSchema(schema: JsonSchema): SchemaCheck {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  const engine = engineFor(schema);
  let check: SchemaCheck;
  if (!engine.validateSchema(schema)) {
    check = {
      valid: false,
      message: `Invalid JSON schema: ${describeErrors(engine.errors ?? [], 'schema')}`,
    };
  } else {
    try {
      check = { valid: true, validate: engine.compile(schema) };
    } catch (error) {
      check = {
        valid: false,
        message: `Invalid JSON schema: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(key, check);
  return check;
}

/** Returns undefined when `value` conforms, else a readable list of the violations. */
export function schemaViolations(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined;
  return describeErrors(validate.errors ?? [], 'value');
}

export function describeErrors(errors: readonly ErrorObject[], root: string): string {
  if (errors.length === 0) return 'unknown error';
  return errors
    .slice(0, 5)
    .map((error) => `${root}${error.instancePath || ''} ${error.message ?? 'is invalid'}`.trim())
    .join('; ');
}

/**
 * The schema as sent to a structured-output model (docs/llm.md#formats): `additionalProperties` dropped,
 * `required` entries that name no property pruned, everywhere in the tree. Answers are still
 * validated against the caller's original schema.
 */
export function normalizeSchemaForModel(schema: JsonSchema): JsonSchema {
  return normalizeNode(schema) as JsonSchema;
}

function normalizeNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalizeNode);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'additionalProperties') continue;
    if (
      (key === 'properties' || key === '$defs' || key === 'definitions') &&
      value &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      // A map of names to schemas: the names are data, not keywords.
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, normalizeNode(child)]),
      );
      continue;
    }
    out[key] = normalizeNode(value);
  }
  const properties = out['properties'];
  if (Array.isArray(out['required'])) {
    const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
    const required = (out['required'] as unknown[]).filter(
      (name): name is string => typeof name === 'string' && names.includes(name),
    );
    if (required.length > 0) out['required'] = [...new Set(required)];
    else delete out['required'];
  }
  return out;
}

/** Property names and their sub-schemas of an object schema (empty for other schemas). */
export function objectProperties(schema: JsonSchema): [string, JsonSchema][] {
  const properties = schema['properties'];
  if (!properties || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>).filter(
    (entry): entry is [string, JsonSchema] => !!entry[1] && typeof entry[1] === 'object',
  );
}
